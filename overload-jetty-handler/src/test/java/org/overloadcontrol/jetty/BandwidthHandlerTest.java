package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * Bandwidth shares (Li &amp; Jamin) in the Jetty handler, over HTTP on a real server, on a fake
 * clock whose timers the test fires: a 0 % group is refused 403, a group over its share is held
 * for its delay without a thread and then admitted, and the bytes Jetty sends are measured.
 */
class BandwidthHandlerTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private JettyHarness jetty;
  private OverloadHandler handler;

  /**
   * The application: writes {@code X-Bytes} bytes, and takes 30 ms of the fake clock doing so.
   */
  final class Sender extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String n = request.getHeaders().get("X-Bytes");
      ticker.advance(Duration.ofMillis(30));
      response.write(
          true, ByteBuffer.wrap(new byte[n == null ? 10 : Integer.parseInt(n)]), callback);
      return true;
    }
  }

  /** In front of the handler: declares the response size, as a static-file handler could. */
  static final class DeclaredSize extends Handler.Wrapper {
    DeclaredSize(Handler handler) {
      super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String size = request.getHeaders().get("X-Size");
      if (size != null) {
        request.setAttribute(BandwidthShaper.SIZE_ATTRIBUTE, Long.parseLong(size));
      }
      return super.handle(request, response, callback);
    }
  }

  private void start(String... extra) throws Exception {
    OverloadHandlerBuilder b =
        OverloadHandler.builder()
            .put("bandwidth.total", "100KB/s")
            .put("bandwidth.alpha", "1")
            .put("bandwidth.groups.bots.share", "0%")
            .put("bandwidth.groups.bots.match.header", "X-Bot")
            .put("bandwidth.groups.all.share", "20%")
            .put("bandwidth.defaultGroup", "all")
            .ticker(ticker)
            .scheduler(scheduler)
            .handler(new Sender());
    for (int i = 0; i < extra.length; i += 2) {
      b.put(extra[i], extra[i + 1]);
    }
    handler = b.build();
    jetty = new JettyHarness(new DeclaredSize(handler));
  }

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.close();
    }
  }

  private EndpointClass route() {
    OverloadEngine engine = handler.runtime().engine();
    return engine.endpoint("default").forClass(engine.config().defaultClass());
  }

  private long count(Outcome outcome) {
    return route().outcomeCount(outcome);
  }

  /** Sends a request for {@code bytes} and waits until the handler has settled its outcome. */
  private void sendBytes(int bytes) throws Exception {
    long before = count(Outcome.COMPLETED);
    ContentResponse r = jetty.request("/img").headers(h -> h.put("X-Bytes", "" + bytes)).send();
    assertThat(r.getStatus()).isEqualTo(200);
    await("the completion").until(() -> count(Outcome.COMPLETED) == before + 1);
  }

  private double measuredBytesPerSecond() {
    return handler.runtime().bandwidthSnapshot().stream()
        .filter(g -> g.name().equals("all"))
        .findFirst()
        .orElseThrow()
        .averageBytesPerSecond();
  }

  @Test
  void aZeroShareGroupIsRefusedWith403() throws Exception {
    start();
    ContentResponse api = jetty.request("/img").headers(h -> h.put("X-Bot", "1")).send();
    assertThat(api.getStatus()).isEqualTo(403);
    assertThat(api.getHeaders().get("Retry-After")).isNull();
    assertThat(api.getHeaders().get("Cache-Control")).isEqualTo("no-store");
    assertThat(api.getMediaType()).isEqualTo("application/problem+json");
    assertThat(api.getContentAsString())
        .contains("\"status\":403")
        .contains("\"reason\":\"bandwidth-zero-share\"")
        .contains("\"instance\":\"/img\"");
    ContentResponse browser =
        jetty.request("/img").headers(h -> h.put("X-Bot", "1").put("Accept", "text/html")).send();
    assertThat(browser.getStatus()).isEqualTo(403);
    assertThat(browser.getContentAsString()).contains("<h1>Forbidden</h1>");
    assertThat(count(Outcome.REJECTED)).isEqualTo(2);
    assertThat(count(Outcome.COMPLETED)).isZero();
  }

  @Test
  void theBytesJettySendsAreMeasured() throws Exception {
    start();
    sendBytes(30_000);
    ticker.advance(Duration.ofMillis(470)); // 500 ms after the start, with the 30 ms of work
    scheduler.runDue(); // the manager round: 30 KB in half a second
    assertThat(measuredBytesPerSecond()).isCloseTo(60_000.0, within(1.0));
  }

  @Test
  void aGroupOverItsShareIsHeldForItsDelayWithoutAThreadThenAdmitted() throws Exception {
    start();
    sendBytes(50_000); // 100 KB/s: the group alone saturates B
    ticker.advance(Duration.ofMillis(470));
    scheduler.runDue();
    assertThat(measuredBytesPerSecond()).isCloseTo(100_000.0, within(1.0));

    QueuedThreadPool pool = (QueuedThreadPool) jetty.server.getThreadPool();
    CompletableFuture<ContentResponse> delayed =
        new CompletableResponseListener(
                jetty
                    .request("/img")
                    .headers(h -> h.put("X-Size", "10000").put("X-Bytes", "10000")))
            .send();
    // (8) remaining 0 → d = 20 KB/s; delay = (1/20k − 1/100k)·10k = 400 ms, on the timer.
    await("the delay timer").until(() -> scheduler.pendingOneShots() == 1);
    await("no server thread busy").until(() -> pool.getUtilizedThreads() == 0);
    assertThat(delayed).isNotDone();
    assertThat(
            handler.runtime().bandwidthSnapshot().stream()
                .filter(g -> g.name().equals("all"))
                .findFirst()
                .orElseThrow()
                .delayedCount())
        .isEqualTo(1);

    ticker.advance(Duration.ofMillis(399));
    scheduler.runDue();
    assertThat(scheduler.pendingOneShots()).isEqualTo(1);
    assertThat(delayed).isNotDone();
    ticker.advance(Duration.ofMillis(1));
    scheduler.runDue(); // the timer: on to admission, then the application
    ContentResponse r = delayed.get(10, TimeUnit.SECONDS);
    assertThat(r.getStatus()).isEqualTo(200);
    assertThat(r.getContent()).hasSize(10_000);
    await("the completion").until(() -> count(Outcome.COMPLETED) == 2);

    // The controller saw 30 ms, not 430 ms: the deliberate delay is not overload.
    ticker.advance(Duration.ofSeconds(1));
    OverloadEngine engine = handler.runtime().engine();
    engine.arrive(engine.tag(route(), ticker.read()));
    assertThat(route().p90().lastSampleP90Nanos()).isBetween(29_000_000L, 31_000_000L);
  }

  @Test
  void aGroupPastItsStandbyLimitGets429WithRetryAfter() throws Exception {
    start("bandwidth.standbyLimit", "1");
    sendBytes(50_000);
    ticker.advance(Duration.ofMillis(470));
    scheduler.runDue();
    CompletableFuture<ContentResponse> first =
        new CompletableResponseListener(
                jetty.request("/img").headers(h -> h.put("X-Size", "10000")))
            .send();
    await("the delay timer").until(() -> scheduler.pendingOneShots() == 1);
    ContentResponse second = jetty.request("/img").headers(h -> h.put("X-Size", "10000")).send();
    assertThat(second.getStatus()).isEqualTo(429);
    assertThat(Long.parseLong(second.getHeaders().get("Retry-After"))).isPositive();
    assertThat(second.getContentAsString())
        .contains("\"status\":429")
        .contains("\"reason\":\"bandwidth-standby-full\"");
    assertThat(first).isNotDone();
    ticker.advance(Duration.ofMillis(400));
    scheduler.runDue();
    assertThat(first.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
  }

  @Test
  void onlyTheConfiguredPathsAreShapedAndAStopAnswersDelayedRequests() throws Exception {
    start("bandwidth.paths", "/img");
    sendBytes(50_000);
    ticker.advance(Duration.ofMillis(470));
    scheduler.runDue();
    ContentResponse page = jetty.request("/page").headers(h -> h.put("X-Size", "10000")).send();
    assertThat(page.getStatus()).as("not shaped: not delayed").isEqualTo(200);
    CompletableFuture<ContentResponse> held =
        new CompletableResponseListener(
                jetty.request("/img").headers(h -> h.put("X-Size", "10000")))
            .send();
    await("the delay timer").until(() -> scheduler.pendingOneShots() == 1);
    EndpointClass route = route();
    handler.stop();
    ContentResponse answered = held.get(10, TimeUnit.SECONDS);
    assertThat(answered.getStatus()).isEqualTo(503);
    assertThat(answered.getContentAsString()).contains("\"reason\":\"shutdown\"");
    assertThat(route.outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    assertThat(scheduler.pendingOneShots()).as("the timer is cancelled").isZero();
  }
}
