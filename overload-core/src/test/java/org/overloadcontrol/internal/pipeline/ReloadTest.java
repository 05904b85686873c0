package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * {@link OverloadRuntime#reload}: all or nothing, between requests, on the fake clock. Every
 * request started in a test ends in exactly one outcome, counted once by the engine that
 * admitted it, and nothing is left waiting or holding a permit.
 */
class ReloadTest {

  private static final String FILE = "overload.yaml";

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler timers = new FakeScheduler(ticker);
  private final List<Request> started = new ArrayList<>();
  private OverloadRuntime runtime;

  private static Map<String, String> keys(String... pairs) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static List<ConfigSource> layers(Map<String, String> keys) {
    return List.of(ConfigSource.of(FILE, keys));
  }

  private void start(Map<String, String> keys) {
    runtime =
        OverloadRuntime.builder(OverloadConfig.parse(layers(keys)))
            .ticker(ticker)
            .scheduler(timers, "unused")
            .start();
  }

  private ReloadResult reload(Map<String, String> keys) {
    return runtime.reload(layers(keys));
  }

  /** A request as an adapter carries it: runs until the test completes it. */
  final class Request extends CarriedRequest {

    Request(String path) {
      super(runtime, new RequestPipelineTest.View().path(path), 10);
      started.add(this);
    }

    EndpointClass route() {
      return exchange.tag().route();
    }
  }

  /** Lets {@code d} pass and runs what fell due. */
  private void advance(Duration d) {
    ticker.advance(d);
    timers.runDue();
  }

  /**
   * {@code n} requests to {@code path} at once, each running {@code responseTime}; a refused
   * one counts, as a client would see it.
   */
  private void round(String path, int n, Duration responseTime) {
    List<Request> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(new Request(path));
    }
    advance(responseTime);
    for (Request r : batch) {
      if (r.running) {
        r.complete();
      }
    }
    timers.runDue();
  }

  private ConcurrencyGroup group() {
    return runtime.engine().concurrencyGroups().get(0);
  }

  @AfterEach
  void everyRequestEndedOnceAndNothingIsHeld() {
    for (Request r : started) {
      if (r.running) {
        r.complete();
      }
    }
    advance(Duration.ofSeconds(30));
    for (Request r : started) {
      assertThat(r.finishes).as("outcomes of one request").isEqualTo(1);
    }
    assertThat(runtime.retiredEngines()).as("replaced engines still running").isZero();
    OverloadEngine engine = runtime.engine();
    if (engine.queues() != null) {
      assertThat(engine.queues().waitingCount()).isZero();
    }
    for (ConcurrencyGroup g : engine.concurrencyGroups()) {
      assertThat(g.inFlight()).as("permits held in " + g.name()).isZero();
    }
    runtime.close();
  }

  private static final Map<String, String> STEADY =
      keys(
          "endpoints.e.target", "200ms",
          "admission.maxLimit", "40",
          "queue.maxWait", "1s");

  @Test
  void aLoweredTargetTakesEffectWithinOneControllerWindow() {
    start(STEADY);
    for (int i = 0; i < 10; i++) {
      round("/x", 30, Duration.ofMillis(150)); // p90 well under 0.9 × 200 ms
    }
    int before = group().limit();
    assertThat(before).isEqualTo(40);

    Map<String, String> lowered = new HashMap<>(STEADY);
    lowered.put("endpoints.e.target", "100ms");
    ReloadResult result = reload(lowered);

    assertThat(result.applied()).isTrue();
    assertThat(result.version()).isEqualTo(2);
    assertThat(result.changes()).containsExactly("endpoints.e.target: 200ms → 100ms");
    assertThat(group().limit()).as("the limit carries over").isEqualTo(before);
    // One window (100 ms) of the same load, now over the new target: the limit is cut.
    round("/x", 30, Duration.ofMillis(150));
    assertThat(group().limit()).isLessThan(before);
    assertThat(runtime.engine().endpoint("e").classes().get(0).controller().targetNanos())
        .isEqualTo(Duration.ofMillis(100).toNanos());
  }

  /**
   * What the adapter said of its container at start (Tomcat closes the connection after a 503)
   * holds for every engine a reload builds; a reload that sets {@code rejectionStatus} wins.
   */
  @Test
  void theContainersRefusalStatusOutlivesAReload() {
    runtime =
        OverloadRuntime.builder(OverloadConfig.parse(layers(STEADY)))
            .ticker(ticker)
            .scheduler(timers, "unused")
            .closesConnectionAfter503(true)
            .start();
    assertThat(runtime.engine().rejectionStatus(RejectionReason.QUEUE_FULL)).isEqualTo(429);

    Map<String, String> lowered = new HashMap<>(STEADY);
    lowered.put("endpoints.e.target", "100ms");
    assertThat(reload(lowered).applied()).isTrue();
    assertThat(runtime.engine().rejectionStatus(RejectionReason.QUEUE_FULL)).isEqualTo(429);

    lowered.put("rejectionStatus", "503");
    assertThat(reload(lowered).applied()).isTrue();
    assertThat(runtime.engine().rejectionStatus(RejectionReason.QUEUE_FULL)).isEqualTo(503);
  }

  @Test
  void aBadChangeIsRefusedWithTheMessageOfAStartAndTheOldSettingsKeepWorking() {
    start(STEADY);
    OverloadEngine engine = runtime.engine();
    Map<String, String> bad = new HashMap<>(STEADY);
    bad.put("endpoints.e.target", "banana");

    ReloadResult result = reload(bad);

    assertThat(result.applied()).isFalse();
    assertThat(result.version()).isEqualTo(1);
    assertThat(result.changes()).isEmpty();
    assertThatThrownBy(() -> Settings.parse(layers(bad))).hasMessage(result.message());
    assertThat(result.message()).contains("endpoints.e.target", "banana", FILE);
    assertThat(runtime.configVersion()).isEqualTo(1);
    assertThat(runtime.lastReload()).isEqualTo(result);
    assertThat(runtime.reloadFailuresTotal()).isEqualTo(1);
    assertThat(runtime.engine()).isSameAs(engine);
    Request r = new Request("/x");
    assertThat(r.steps).containsExactly(Step.Kind.RUN);
    assertThat(r.engine).isSameAs(engine);
    assertThat(runtime.retiredEngines()).isZero();
  }

  @Test
  void aKeyThatCannotChangeAtRunTimeIsRefusedAndSaysWhy() {
    start(keys("endpoints.e.target", "200ms", "virtualQueue.keyFile", "/secret/keys"));

    ReloadResult result =
        reload(keys("endpoints.e.target", "100ms", "virtualQueue.keyFile", "/other/keys"));

    assertThat(result.applied()).isFalse();
    assertThat(result.message())
        .contains("virtualQueue.keyFile", "cannot change at run time", "key ring", FILE)
        .doesNotContain("/other/keys");
    assertThat(runtime.config().endpoints().get("e").targetNanos())
        .isEqualTo(Duration.ofMillis(200).toNanos());
  }

  @Test
  void aReloadThatChangesNothingKeepsTheVersion() {
    start(STEADY);
    ReloadResult result = reload(STEADY);
    assertThat(result.applied()).isTrue();
    assertThat(result.version()).isEqualTo(1);
    assertThat(result.message()).isEqualTo("no key changed");
    assertThat(runtime.reloadsTotal()).isEqualTo(1);
  }

  @Test
  void permitsHeldAcrossTheSwapGoBackToTheEngineThatGaveThemAndWaitersKeepTheirPlace() {
    Map<String, String> two =
        keys(
            "endpoints.e.target", "1s",
            "admission.maxLimit", "2",
            "queue.maxWait", "2s");
    start(two);
    Request a = new Request("/x");
    Request b = new Request("/x");
    Request waiting = new Request("/x");
    assertThat(waiting.steps).containsExactly(Step.Kind.WAIT);
    OverloadEngine old = runtime.engine();
    ConcurrencyGroup oldGroup = group();

    Map<String, String> changed = new HashMap<>(two);
    changed.put("endpoints.e.target", "2s");
    assertThat(reload(changed).applied()).isTrue();
    assertThat(runtime.engine()).isNotSameAs(old);
    assertThat(runtime.retiredEngines()).isEqualTo(1);

    // A new request is admitted by the new engine; the old one keeps its waiter and permits.
    Request d = new Request("/x");
    assertThat(d.engine).isSameAs(runtime.engine());
    advance(Duration.ofMillis(100));
    assertThat(old.queues().waitingCount()).isEqualTo(1);

    a.complete(); // its permit goes back to the old engine, whose waiter takes it
    assertThat(waiting.steps).containsExactly(Step.Kind.WAIT, Step.Kind.RUN);
    assertThat(old.queues().waitingCount()).isZero();
    advance(Duration.ofMillis(100));
    assertThat(runtime.retiredEngines()).as("stopped once its last waiter left").isZero();

    b.complete();
    waiting.complete();
    d.complete();
    assertThat(oldGroup.inFlight()).isZero();
    assertThat(group().inFlight()).isZero();
    assertThat(a.route().outcomeCount(Outcome.COMPLETED)).isEqualTo(3);
    assertThat(d.route().outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    assertThat(d.route()).isNotSameAs(a.route());
  }

  @Test
  void aRemovedEndpointsWaitersExpireOnceAtTheirDeadline() {
    Map<String, String> withSearch =
        keys(
            "endpoints.e.target", "1s",
            "endpoints.search.target", "1s",
            "endpoints.search.paths", "/search/*",
            "admission.maxLimit", "1",
            "queue.maxWait", "2s");
    start(withSearch);
    Request running = new Request("/search/a");
    Request waiting = new Request("/search/b");
    assertThat(waiting.steps).containsExactly(Step.Kind.WAIT);
    assertThat(waiting.route().endpoint().name()).isEqualTo("search");

    Map<String, String> without = new HashMap<>(withSearch);
    without.remove("endpoints.search.target");
    without.remove("endpoints.search.paths");
    ReloadResult result = reload(without);
    assertThat(result.applied()).isTrue();
    assertThat(result.changes())
        .containsExactly(
            "endpoints.search.paths: /search/* → (unset)", "endpoints.search.target: 1s → (unset)");
    assertThat(runtime.engine().endpoints()).extracting(e -> e.name()).doesNotContain("search");

    // Its deadline is the one it was given when it queued (0.7 of the old 1 s target).
    assertThat(waiting.outcome).isNull();
    advance(Duration.ofMillis(699));
    assertThat(waiting.outcome).isNull();
    advance(Duration.ofMillis(1));
    assertThat(waiting.steps).containsExactly(Step.Kind.WAIT, Step.Kind.REJECT);
    assertThat(waiting.outcome).isEqualTo(Outcome.EXPIRED);
    assertThat(waiting.route().outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    advance(Duration.ofMillis(200));
    assertThat(runtime.retiredEngines()).isZero();
    running.complete();
  }

  @Test
  void aLearnedLimitCarriesOverToTheSameGroupAndANewGroupStartsFresh() {
    Map<String, String> slow =
        keys(
            "endpoints.e.target", "200ms",
            "admission.maxLimit", "40",
            "queue.maxWait", "1s");
    start(slow);
    for (int i = 0; i < 5; i++) {
      round("/x", 30, Duration.ofMillis(300)); // over the target: the limit comes down
    }
    int learned = group().limit();
    assertThat(learned).isLessThan(40);

    Map<String, String> moreClasses = new HashMap<>(slow);
    moreClasses.put("classes.gold.rank", "9");
    assertThat(reload(moreClasses).applied()).isTrue();
    assertThat(group().limit()).isEqualTo(learned);

    Map<String, String> ownGroup = new HashMap<>(moreClasses);
    ownGroup.put("admission.groups.db.endpoints", "e");
    ownGroup.put("admission.groups.db.maxLimit", "40");
    assertThat(reload(ownGroup).applied()).isTrue();
    assertThat(runtime.engine().endpoint("e").concurrencyGroup().name()).isEqualTo("db");
    assertThat(runtime.engine().endpoint("e").concurrencyGroup().limit()).isEqualTo(40);
    assertThat(runtime.configVersion()).isEqualTo(3);
  }

  @Test
  void aStoppedRuntimeReloadsNothing() {
    start(STEADY);
    runtime.shutdown();
    ReloadResult result = reload(keys("endpoints.e.target", "1s"));
    assertThat(result.applied()).isFalse();
    assertThat(runtime.configVersion()).isEqualTo(1);
  }

  @Test
  void theStatusPageAndTheMetricsShowTheVersionAndTheLastReload() throws Exception {
    start(STEADY);
    java.util.Map<String, java.util.function.LongSupplier> counts = new HashMap<>();
    java.util.Map<String, java.util.function.DoubleSupplier> gauges = new HashMap<>();
    org.overloadcontrol.internal.metrics.Observability observability =
        runtime
            .observability()
            .stateListener(org.overloadcontrol.internal.metrics.StateChange.Listener.NONE)
            .recorder(
                new org.overloadcontrol.metrics.MetricsRecorder() {
                  @Override
                  public void count(
                      org.overloadcontrol.metrics.MetricId id,
                      java.util.function.LongSupplier count) {
                    counts.put(id.dropwizardName(), count);
                  }

                  @Override
                  public void gauge(
                      org.overloadcontrol.metrics.MetricId id,
                      java.util.function.DoubleSupplier value) {
                    gauges.put(id.dropwizardName(), value);
                  }

                  @Override
                  public void close() {}
                })
            .build();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.JsonNode status = json.readTree(observability.statusJson());
    assertThat(status.get("configVersion").asLong()).isEqualTo(1);
    assertThat(status.get("lastReload").isNull()).isTrue();

    Map<String, String> lowered = new HashMap<>(STEADY);
    lowered.put("endpoints.e.target", "100ms");
    reload(lowered);
    Map<String, String> bad = new HashMap<>(STEADY);
    bad.put("queue.maxWait", "forever");
    ReloadResult refused = reload(bad);

    status = json.readTree(observability.statusJson());
    assertThat(status.get("configVersion").asLong()).isEqualTo(2);
    assertThat(status.get("lastReload").get("result").asText()).isEqualTo("refused");
    assertThat(status.get("lastReload").get("message").asText()).isEqualTo(refused.message());
    assertThat(status.get("lastReload").get("time").asText()).isEqualTo(refused.at().toString());
    assertThat(gauges.get("overload.config.version").getAsDouble()).isEqualTo(2.0);
    assertThat(counts.get("overload.config.reloads").getAsLong()).isEqualTo(2);
    assertThat(counts.get("overload.config.reload_failures").getAsLong()).isEqualTo(1);
    observability.close();
  }

  @Test
  void aReplacedEngineIsLetGoOnceItsLastWaiterHasLeft() throws Exception {
    start(STEADY);
    // One request seen and finished, so that the next engine takes its endpoint over.
    Exchange e = runtime.pipeline().start(new RequestPipelineTest.View(), "e");
    assertThat(e.step().kind()).isEqualTo(Step.Kind.RUN);
    e.settle(Outcome.COMPLETED, 0);
    java.lang.ref.WeakReference<OverloadEngine> first =
        new java.lang.ref.WeakReference<>(runtime.engine());
    e = null;
    for (String target : List.of("300ms", "400ms", "500ms")) {
      Map<String, String> next = new HashMap<>(STEADY);
      next.put("endpoints.e.target", target);
      assertThat(reload(next).applied()).isTrue();
      advance(Duration.ofMillis(200));
    }
    assertThat(runtime.retiredEngines()).isZero();
    await("the first engine let go, three reloads later")
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              System.gc();
              return first.get() == null;
            });
  }

  @Test
  void aLearnedRateCarriesOverThoughTheInitialRateChanged() {
    Map<String, String> rate =
        keys(
            "admission.controller", "rate",
            "endpoints.e.target", "200ms",
            "controller.initialRate", "50");
    start(rate);
    Request r = new Request("/x");
    r.complete();
    double learned = r.route().controller().rate();

    Map<String, String> next = new HashMap<>(rate);
    next.put("controller.initialRate", "10");
    assertThat(reload(next).applied()).isTrue();

    EndpointClass now =
        runtime.engine().endpoint("e").forClass(runtime.engine().config().defaultClass());
    assertThat(now).isNotSameAs(r.route());
    assertThat(now.controller().rate()).isEqualTo(learned);
  }

  @Test
  void anAdmittedSessionIsStillAdmittedAfterAReload() {
    Map<String, String> sessions =
        keys(
            "endpoints.e.target", "1s",
            "sessions.enabled", "true",
            "sessions.maxSessions", "1");
    start(sessions);
    Request first = new Request("/x");
    assertThat(first.steps).containsExactly(Step.Kind.RUN);
    String setCookie = first.exchange.setCookies().get(0);
    String cookie = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    first.complete();

    Map<String, String> next = new HashMap<>(sessions);
    next.put("endpoints.e.target", "2s");
    assertThat(reload(next).applied()).isTrue();

    // The table (one session) and the cookie keys came over: a new session finds the table
    // full, and the admitted one is known by its cookie.
    Exchange fresh = runtime.pipeline().start(new RequestPipelineTest.View(), "e");
    assertThat(fresh.step().kind()).isEqualTo(Step.Kind.REJECT);
    fresh.settle(Outcome.REJECTED, 0);
    RequestPipelineTest.View again = new RequestPipelineTest.View();
    again.cookies.put("oc_session", cookie);
    Exchange known = runtime.pipeline().start(again, "e");
    assertThat(known.step().kind()).isEqualTo(Step.Kind.RUN);
    assertThat(known.setCookies()).as("no new session cookie").isEmpty();
    known.settle(Outcome.COMPLETED, 0);
  }
}
