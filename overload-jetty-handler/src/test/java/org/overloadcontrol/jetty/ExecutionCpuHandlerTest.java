package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The handler marks each admitted request running on the thread that runs the wrapped handler,
 * so that a completion there gives the concurrency limit the execution's CPU time: a request
 * run at once on Jetty's thread, and a held one run later on the server's executor. The
 * readings are the thread's real CPU time; each recorded execution took at least what the
 * application burned. The request holding the permit is completed from the test's thread, which
 * never started an execution, so that the burning request is the only one recorded.
 */
class ExecutionCpuHandlerTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long BURN_NANOS = 5_000_000L;

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final Application app = new Application();
  private JettyHarness jetty;
  private OverloadEngine engine;

  /**
   * Holds a request labelled {@code hold} until the test completes it; burns CPU for any other,
   * lets a second of the engine's time go by and completes it on its own thread.
   */
  private final class Application extends Handler.Abstract {
    final Map<String, Callback> held = new ConcurrentHashMap<>();
    final Map<String, Long> burned = new ConcurrentHashMap<>();
    final Map<String, Boolean> startLeft = new ConcurrentHashMap<>();

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String label = request.getHeaders().get("X-Label");
      if ("hold".equals(label)) {
        held.put(label, callback);
        return true;
      }
      burned.put(label, CpuBurn.burn(BURN_NANOS));
      ticker.advance(Duration.ofSeconds(1));
      response.setStatus(200);
      callback.succeeded();
      startLeft.put(label, OverloadEngine.executionStartedOnThisThread());
      return true;
    }
  }

  @BeforeEach
  void start() throws Exception {
    assumeThat(THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled())
        .as("thread CPU time measured")
        .isTrue();
    OverloadHandler handler =
        OverloadHandler.builder()
            .putAll(Map.of("queue.permits", "1", "queue.maxWait", "60s"))
            .target("work", Duration.ofSeconds(2))
            .defaultEndpoint("work")
            .ticker(ticker)
            .scheduler(scheduler)
            .handler(app)
            .build();
    jetty = new JettyHarness(handler);
    engine = handler.runtime().engine();
  }

  @AfterEach
  void stop() {
    if (jetty != null) {
      jetty.close();
    }
  }

  private ConcurrencyGroup group() {
    return engine.endpoint("work").concurrencyGroup();
  }

  private long outcomes(Outcome outcome) {
    return engine.endpoint("work").classes().stream().mapToLong(c -> c.outcomeCount(outcome)).sum();
  }

  private CompletableFuture<ContentResponse> send(String label) {
    return new CompletableResponseListener(
            jetty.request("/work").headers(h -> h.put("X-Label", label)))
        .send();
  }

  @Test
  void aRequestRunAtOnceRecordsWhatTheHandlerBurned() throws Exception {
    ContentResponse response = send("now").get();
    assertThat(response.getStatus()).isEqualTo(200);
    await("its outcome").until(() -> outcomes(Outcome.COMPLETED) == 1);

    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isGreaterThanOrEqualTo(app.burned.get("now"));
    assertThat(app.burned.get("now")).isGreaterThanOrEqualTo(BURN_NANOS);
    await("the handler returned").until(() -> app.startLeft.containsKey("now"));
    assertThat(app.startLeft.get("now")).as("a start left on the thread").isFalse();
  }

  @Test
  void aHeldRequestRunOnTheExecutorRecordsWhatTheHandlerBurned() throws Exception {
    send("hold");
    await("the permit held").until(() -> app.held.containsKey("hold"));
    CompletableFuture<ContentResponse> later = send("later");
    await("waiting").until(() -> engine.queues().waitingCount() == 1);
    long measuredBefore = group().executionsMeasured();

    app.held.remove("hold").succeeded(); // on this thread: hands the permit on
    assertThat(later.get().getStatus()).isEqualTo(200);
    await("both outcomes").until(() -> outcomes(Outcome.COMPLETED) == 2);

    assertThat(engine.endpoint("work").classes().get(0).enqueuedCount()).isEqualTo(1);
    assertThat(group().executionsMeasured() - measuredBefore).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isGreaterThanOrEqualTo(app.burned.get("later"));
    assertThat(app.burned.get("later")).isGreaterThanOrEqualTo(BURN_NANOS);
    await("the handler returned").until(() -> app.startLeft.containsKey("later"));
    assertThat(app.startLeft.get("later")).as("a start left on the thread").isFalse();
  }

  @Test
  void aHeldRequestWhoseClientLeftNeverRunsAndRecordsNothing() throws Exception {
    send("hold");
    await("the permit held").until(() -> app.held.containsKey("hold"));
    long measuredBefore = group().executionsMeasured();
    try (Socket gone = new Socket("127.0.0.1", jetty.connector.getLocalPort())) {
      gone.getOutputStream()
          .write(
              "GET /work HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Label: gone\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      gone.getOutputStream().flush();
      await("waiting").until(() -> engine.queues().waitingCount() == 1);
    }
    await("the queue empty").until(() -> engine.queues().waitingCount() == 0);

    app.held.remove("hold").succeeded();
    await("the held one's outcome").until(() -> outcomes(Outcome.COMPLETED) == 1);
    assertThat(app.burned).doesNotContainKey("gone");
    assertThat(group().executionsMeasured() - measuredBefore).isZero();
    assertThat(engine.queues().permitsInUse()).isZero();
  }
}
