package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.metrics.Observability;

/** The virtual queue and bandwidth shares, as the filter wires them around admission. */
class FeatureWiringTest {

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler scheduler = new FakeScheduler(harness.ticker);

  private OverloadFilter start() throws Exception {
    OverloadFilter filter = new OverloadFilter(harness.ticker, AdmissionListener.NONE, scheduler);
    filter.init(harness.filterConfig());
    return filter;
  }

  private EndpointClass route(OverloadFilter filter) {
    return filter
        .runtime()
        .engine()
        .endpoint("s")
        .forClass(filter.runtime().engine().config().defaultClass());
  }

  @Test
  void zeroShareGroupIsRefusedWith403AndCountedRejected() throws Exception {
    harness.initParams.put("bandwidth.total", "100KB/s");
    harness.initParams.put("bandwidth.groups.bots.share", "0%");
    harness.initParams.put("bandwidth.groups.bots.match.header", "X-Bot");
    OverloadFilter filter = start();
    FilterHarness.Res res = new FilterHarness.Res();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(new FilterHarness.Req().header("X-Bot", "1").build(), res.mock, chain);
    verify(chain, never()).doFilter(any(), any());
    assertThat(res.status).isEqualTo(403);
    assertThat(route(filter).outcomeCount(Outcome.REJECTED)).isEqualTo(1);
  }

  private OverloadFilter startShaping() throws Exception {
    harness.initParams.put("bandwidth.total", "100KB/s");
    harness.initParams.put("bandwidth.alpha", "1");
    harness.initParams.put("bandwidth.groups.all.share", "20%");
    harness.initParams.put("bandwidth.defaultGroup", "all");
    return start();
  }

  @Test
  void shapedResponsesAreCountedAndMeasured() throws Exception {
    OverloadFilter filter = startShaping();
    sendBytes(filter, 30_000);
    harness.ticker.advance(Duration.ofMillis(500));
    scheduler.runDue(); // the manager round: 30 KB in half a second
    assertThat(filter.runtime().bandwidthSnapshot().get(0).averageBytesPerSecond())
        .isCloseTo(60_000.0, org.assertj.core.api.Assertions.within(1.0));
  }

  @Test
  void delayedRequestWaitsOnTheTimerThenGoesToAdmissionWithoutTheDelayInItsTime() throws Exception {
    OverloadFilter filter = startSaturated();

    FilterHarness.Req req = new FilterHarness.Req();
    AsyncContext async = mock(AsyncContext.class);
    HttpServletRequest request = shapedRequest(req, async);
    lenient().when(async.getRequest()).thenReturn(request);
    AtomicInteger dispatched = new AtomicInteger();
    lenient().doAnswer(inv -> dispatched.incrementAndGet()).when(async).dispatch();
    java.util.List<jakarta.servlet.AsyncListener> listeners = new java.util.ArrayList<>();
    lenient()
        .doAnswer(inv -> listeners.add(inv.getArgument(0)))
        .when(async)
        .addListener(any(jakarta.servlet.AsyncListener.class));
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(request, new FilterHarness.Res().mock, chain);
    verify(chain, never()).doFilter(any(), any());
    assertThat(req.attributes).containsKey(SuspendedRequest.ATTRIBUTE);

    // (8) remaining 0 → d = 20 KB/s; delay = (1/20k − 1/100k)·10k = 400 ms, on the timer.
    harness.ticker.advance(Duration.ofMillis(399));
    scheduler.runDue();
    assertThat(dispatched.get()).isZero();
    harness.ticker.advance(Duration.ofMillis(1));
    scheduler.runDue();
    // Admitted on the timer, before the dispatch: the filter need not see the ASYNC dispatch.
    assertThat(dispatched.get()).isEqualTo(1);
    assertThat(Overload.context(request)).isPresent();

    // The container runs the application (not through the filter) and completes the request.
    harness.ticker.advance(Duration.ofMillis(30));
    fireComplete(async, listeners);
    EndpointClass route = route(filter);
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
    // The controller saw 30 ms, not 430 ms: the deliberate delay is not overload.
    harness.ticker.advance(Duration.ofSeconds(1));
    filter.runtime().engine().arrive(filter.runtime().engine().tag(route, harness.ticker.read()));
    assertThat(route.p90().lastSampleP90Nanos()).isBetween(29_000_000L, 31_000_000L);
  }

  private static void fireComplete(
      AsyncContext async, java.util.List<jakarta.servlet.AsyncListener> listeners)
      throws Exception {
    for (jakarta.servlet.AsyncListener l : java.util.List.copyOf(listeners)) {
      l.onComplete(new jakarta.servlet.AsyncEvent(async));
    }
  }

  /** The shaping filter, its one group having saturated B over the last half second. */
  private OverloadFilter startSaturated() throws Exception {
    OverloadFilter filter = startShaping();
    sendBytes(filter, 50_000); // 100 KB/s: the group alone saturates B
    harness.ticker.advance(Duration.ofMillis(500));
    scheduler.runDue();
    return filter;
  }

  /** A shaped 10 KB request that goes async into {@code async}. */
  private static HttpServletRequest shapedRequest(FilterHarness.Req req, AsyncContext async)
      throws Exception {
    req.attributes.put(
        org.overloadcontrol.internal.bandwidth.BandwidthShaper.SIZE_ATTRIBUTE, 10_000L);
    HttpServletRequest request = req.build();
    when(request.isAsyncSupported()).thenReturn(true);
    when(request.startAsync(any(), any())).thenReturn(async);
    return request;
  }

  private void sendBytes(OverloadFilter filter, int bytes) throws Exception {
    filter.doFilter(
        new FilterHarness.Req().build(),
        new FilterHarness.Res().mock,
        (rq, rs) -> rs.getOutputStream().write(new byte[bytes]));
  }

  @Test
  void virtualQueueTellsTheExcessToWaitAndCountsItRedirected() throws Exception {
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/s");
    harness.initParams.put("virtualQueue.capacity", "1");
    OverloadFilter filter = start();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());
    FilterHarness.Res res = new FilterHarness.Res();
    FilterChain second = mock(FilterChain.class);
    filter.doFilter(
        new FilterHarness.Req().header("Accept", "text/html").build(), res.mock, second);
    verify(second, never()).doFilter(any(), any());
    assertThat(res.status).isEqualTo(200);
    assertThat(res.bodyText()).contains("oc_token");
    assertThat(route(filter).outcomeCount(Outcome.REDIRECTED)).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
  }

  @Test
  void aBrowsersFormToldToWaitIsReadAndKeptOnTheWaitingPage() throws Exception {
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/s");
    harness.initParams.put("virtualQueue.capacity", "1");
    OverloadFilter filter = start();
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));
    FilterHarness.Req post =
        new FilterHarness.Req()
            .header("Accept", "text/html")
            .header("Content-Type", "application/x-www-form-urlencoded");
    post.method = "POST";
    HttpServletRequest request = post.build();
    byte[] body = "item=42".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(body);
    when(request.getContentLengthLong()).thenReturn((long) body.length);
    when(request.getInputStream())
        .thenReturn(
            new jakarta.servlet.ServletInputStream() {
              @Override
              public int read() {
                return in.read();
              }

              @Override
              public boolean isFinished() {
                return in.available() == 0;
              }

              @Override
              public boolean isReady() {
                return true;
              }

              @Override
              public void setReadListener(jakarta.servlet.ReadListener listener) {}
            });
    FilterHarness.Res res = new FilterHarness.Res();
    FilterChain chain = mock(FilterChain.class);

    filter.doFilter(request, res.mock, chain);

    verify(chain, never()).doFilter(any(), any());
    assertThat(res.status).isEqualTo(200);
    assertThat(res.bodyText()).contains("name=\"item\"").contains("value=\"42\"");
    assertThat(route(filter).outcomeCount(Outcome.REDIRECTED)).isEqualTo(1);
  }

  // ---- observability: the status JSON and the registry show both features ----

  private Observability observability() {
    return (Observability) harness.contextAttributes.get(Observability.ATTRIBUTE);
  }

  private JsonNode status() throws Exception {
    return new ObjectMapper().readTree(observability().statusJson());
  }

  /** The application's Dropwizard registry, where the filter records its metrics. */
  private final com.codahale.metrics.MetricRegistry registry =
      new com.codahale.metrics.MetricRegistry();

  @org.junit.jupiter.api.BeforeEach
  void applicationRegistry() {
    harness.contextAttributes.put(Observability.REGISTRY_ATTRIBUTE, registry);
  }

  /** A count (a Dropwizard counter) or another value (a gauge) of the registry. */
  private long metric(String name) {
    com.codahale.metrics.Counter count = registry.getCounters().get(name);
    return count != null
        ? count.getCount()
        : ((Number) registry.getGauges().get(name).getValue()).longValue();
  }

  @Test
  void statusAndRegistryShowShapedRequests() throws Exception {
    OverloadFilter filter = startSaturated();
    HttpServletRequest request = shapedRequest(new FilterHarness.Req(), mock(AsyncContext.class));
    filter.doFilter(request, new FilterHarness.Res().mock, mock(FilterChain.class));

    JsonNode bandwidth = status().get("bandwidth");
    assertThat(bandwidth.get("totalBytesPerSecond").asDouble()).isEqualTo(100_000);
    JsonNode all = bandwidth.get("groups").get(0);
    assertThat(all.get("name").asText()).isEqualTo("all");
    assertThat(all.get("allocatedBytesPerSecond").asDouble()).isEqualTo(20_000);
    assertThat(all.get("averageBytesPerSecond").asDouble()).isEqualTo(100_000);
    assertThat(all.get("admitted").asLong()).as("one at once, one after its delay").isEqualTo(2);
    assertThat(all.get("delayedNow").asInt()).as("held on the timer").isEqualTo(1);
    assertThat(all.get("active").asBoolean()).isTrue();
    assertThat(status().get("virtualQueue").isNull()).as("not configured").isTrue();
    assertThat(metric("overload.bandwidth.group.all.admitted")).isEqualTo(2);
    assertThat(metric("overload.bandwidth.group.all.delayed_now")).isEqualTo(1);
    assertThat(metric("overload.bandwidth.group.all.average_bytes_per_second")).isEqualTo(100_000);
    assertThat(registry.getNames()).noneMatch(n -> n.startsWith("overload.virtual_queue"));
  }

  @Test
  void statusAndRegistryShowTheVirtualQueue() throws Exception {
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/s");
    harness.initParams.put("virtualQueue.capacity", "1");
    OverloadFilter filter = start();
    filter.doFilter(
        new FilterHarness.Req().build(),
        new FilterHarness.Res().mock,
        mock(FilterChain.class)); // passes: slot 0
    FilterHarness.Res told = new FilterHarness.Res();
    filter.doFilter(
        new FilterHarness.Req().header("Accept", "application/json").build(),
        told.mock,
        mock(FilterChain.class)); // waits 1 s
    Matcher token = Pattern.compile("\"token\":\"([^\"]+)\"").matcher(told.bodyText());
    assertThat(token.find()).as(told.bodyText()).isTrue();
    HttpServletRequest forged = new FilterHarness.Req().build();
    when(forged.getQueryString()).thenReturn("oc_token=AAAA");
    filter.doFilter(forged, new FilterHarness.Res().mock, mock(FilterChain.class));

    JsonNode queue = status().get("virtualQueue");
    assertThat(queue.get("passed").asLong()).isEqualTo(1);
    assertThat(queue.get("toldToWait").asLong()).isEqualTo(1);
    assertThat(queue.get("refusals").get("forged").asLong()).isEqualTo(1);
    assertThat(queue.get("currentWaitSeconds").asInt()).as("slots 0 and 1 taken").isEqualTo(2);
    assertThat(queue.get("capacitySubunitsPerSecond").asDouble()).isEqualTo(1);
    assertThat(status().get("bandwidth").isNull()).as("not configured").isTrue();

    harness.ticker.advance(Duration.ofSeconds(1)); // the slot has come: back with the token
    HttpServletRequest back = new FilterHarness.Req().build();
    when(back.getQueryString()).thenReturn("oc_token=" + token.group(1));
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(back, new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());
    assertThat(metric("overload.virtual_queue.passed")).isEqualTo(2);
    assertThat(metric("overload.virtual_queue.token_admitted")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.told_to_wait")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.refusals.forged")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.current_wait_seconds")).isEqualTo(1);
    filter.destroy();
    assertThat(registry.getNames())
        .as("removed with the filter")
        .noneMatch(n -> n.startsWith("overload."));
  }
}
