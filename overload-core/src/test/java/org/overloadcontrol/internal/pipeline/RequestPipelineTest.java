package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Answer;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * {@link RequestPipeline}: the request life cycle in the engine, driven on the fake clock by a
 * fake request view and a fake carrier of steps, no container and no servlet mock. Each path a
 * request can take ends in exactly one outcome, and nothing is left waiting or holding a permit.
 */
class RequestPipelineTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler timers = new FakeScheduler(ticker);
  private OverloadRuntime runtime;

  private RequestPipeline start(Map<String, String> keys) {
    runtime =
        OverloadRuntime.builder(OverloadConfig.of(keys))
            .ticker(ticker)
            .scheduler(timers, "unused")
            .start();
    return runtime.pipeline();
  }

  private EndpointClass route() {
    return runtime.engine().endpoint("e").forClass(runtime.engine().config().defaultClass());
  }

  /** A request as an adapter would read it. */
  static final class View implements RequestView {
    String method = "GET";
    String path = "/x";
    String requestUri;
    long contentLength = -1;
    final Map<String, String> headers = new HashMap<>();
    final Map<String, String> cookies = new HashMap<>();
    boolean canSuspend = true;

    View path(String value) {
      path = value;
      return this;
    }

    View header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    @Override
    public String method() {
      return method;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public String header(String name) {
      return headers.get(name);
    }

    @Override
    public String cookie(String name) {
      return cookies.get(name);
    }

    @Override
    public String clientAddress() {
      return "10.0.0.1";
    }

    @Override
    public String peerAddress() {
      return "10.0.0.1";
    }

    @Override
    public String requestUri() {
      return requestUri != null ? requestUri : path;
    }

    @Override
    public String rawQuery() {
      return null;
    }

    @Override
    public boolean secure() {
      return false;
    }

    @Override
    public String contextPath() {
      return "";
    }

    @Override
    public long contentLength() {
      return contentLength;
    }

    @Override
    public String containerSessionId() {
      return null;
    }

    @Override
    public long declaredResponseSize() {
      return -1;
    }

    @Override
    public boolean canSuspend() {
      return canSuspend;
    }
  }

  /**
   * An adapter in miniature: carries out each step as a container would (a RUN "runs" until the
   * test ends it), and records every outcome it reported.
   */
  final class Adapter extends CarriedRequest {
    Adapter(View view) {
      super(runtime, view, 100);
    }
  }

  @Test
  void aProbePassesUncontrolledAndReportsNothing() {
    start(Map.of());
    Adapter probe = new Adapter(new View().path("/healthz"));
    assertThat(probe.steps).containsExactly(Step.Kind.PASS);
    assertThat(probe.exchange.settle(Outcome.COMPLETED, 0)).isFalse();
    assertThat(route().arrivalCount()).isZero();
  }

  @Test
  void anAdmittedRequestRunsAndFinishesOnce() {
    start(Map.of());
    Adapter a = new Adapter(new View());
    assertThat(a.steps).containsExactly(Step.Kind.RUN);
    a.complete();
    assertThat(a.exchange.settle(Outcome.FAILED, 0)).isFalse();
    assertThat(a.outcome).isEqualTo(Outcome.COMPLETED);
    assertThat(route().outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
  }

  @Test
  void aWaitingRequestRunsWhenAPermitIsHandedOver() {
    start(Map.of("queue.permits", "1", "queue.maxWait", "2s"));
    Adapter first = new Adapter(new View());
    Adapter second = new Adapter(new View());
    assertThat(second.steps).containsExactly(Step.Kind.WAIT);
    assertThat(second.running).isFalse();

    first.complete();

    assertThat(second.steps).containsExactly(Step.Kind.WAIT, Step.Kind.RUN);
    second.complete();
    assertThat(runtime.engine().queues().waitingCount()).isZero();
    assertThat(route().outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
  }

  @Test
  void aWaitingRequestIsRefusedAtItsDeadline() {
    start(Map.of("queue.permits", "1", "queue.maxWait", "2s"));
    Adapter first = new Adapter(new View());
    Adapter second = new Adapter(new View());
    ticker.advance(Duration.ofMillis(1999));
    timers.runDue();
    assertThat(second.outcome).isNull();
    ticker.advance(Duration.ofMillis(1));
    timers.runDue();
    assertThat(second.steps).containsExactly(Step.Kind.WAIT, Step.Kind.REJECT);
    assertThat(second.outcome).isEqualTo(Outcome.EXPIRED);
    assertThat(second.exchange.tag().reason()).isEqualTo(RejectionReason.EXPIRED);
    first.complete();
  }

  @Test
  void aClientThatLeavesWhileWaitingIsTakenOutAndNeverRuns() {
    start(Map.of("queue.permits", "1", "queue.maxWait", "2s"));
    Adapter first = new Adapter(new View());
    Adapter second = new Adapter(new View());

    assertThat(second.exchange.left()).isTrue();
    assertThat(second.exchange.left()).isFalse();

    assertThat(second.outcome).isEqualTo(Outcome.EXPIRED);
    assertThat(second.exchange.tag().reason()).isEqualTo(RejectionReason.ABANDONED);
    assertThat(route().abandonedCount()).isEqualTo(1);
    first.complete();
    assertThat(second.steps).doesNotContain(Step.Kind.RUN);
    assertThat(runtime.engine().queues().waitingCount()).isZero();
  }

  @Test
  void aRequestThatCannotBeSuspendedIsRefusedWhenTheQueueSaysReject() {
    start(Map.of("queue.permits", "1", "queue.nonAsync", "reject"));
    Adapter first = new Adapter(new View());
    View blocking = new View();
    blocking.canSuspend = false;
    Adapter second = new Adapter(blocking);
    assertThat(second.steps).containsExactly(Step.Kind.REJECT);
    assertThat(second.exchange.tag().reason()).isEqualTo(RejectionReason.NO_ASYNC);
    first.complete();
  }

  private static final Map<String, String> SHAPING =
      Map.of(
          "bandwidth.total",
          "100KB/s",
          "bandwidth.alpha",
          "1",
          "bandwidth.groups.all.share",
          "20%",
          "bandwidth.defaultGroup",
          "all");

  /** Fills the shaped group's measured bandwidth so the next request is delayed. */
  private void saturate() {
    Adapter big = new Adapter(new View());
    big.running = true;
    big.exchange.settle(Outcome.COMPLETED, 100_000);
    ticker.advance(Duration.ofMillis(500));
    timers.runDue();
  }

  @Test
  void aDelayedRequestGoesOnToAdmissionWhenItsDelayEnds() {
    start(SHAPING);
    saturate();
    Adapter delayed = new Adapter(new View());
    assertThat(delayed.steps).containsExactly(Step.Kind.DELAY);
    assertThat(runtime.delayedCount()).isEqualTo(1);

    ticker.advance(Duration.ofSeconds(10));
    timers.runDue();

    assertThat(delayed.steps).containsExactly(Step.Kind.DELAY, Step.Kind.RUN);
    delayed.complete();
    assertThat(runtime.delayedCount()).isZero();
  }

  @Test
  void aClientThatLeavesWhileDelayedNeverReachesAdmission() {
    start(SHAPING);
    saturate();
    Adapter delayed = new Adapter(new View());
    long arrivals = route().arrivalCount();

    assertThat(delayed.exchange.left()).isTrue();
    ticker.advance(Duration.ofSeconds(10));
    timers.runDue();

    assertThat(delayed.steps).containsExactly(Step.Kind.DELAY, Step.Kind.REJECT);
    assertThat(delayed.outcome).isEqualTo(Outcome.EXPIRED);
    assertThat(delayed.exchange.tag().reason()).isEqualTo(RejectionReason.ABANDONED);
    assertThat(route().arrivalCount()).isEqualTo(arrivals);
  }

  @Test
  void aDelayThatCannotBeHeldIsAnswered429() {
    start(SHAPING);
    saturate();
    View blocking = new View();
    blocking.canSuspend = false;
    Adapter refused = new Adapter(blocking);
    assertThat(refused.steps).containsExactly(Step.Kind.ANSWER);
    assertThat(refused.exchange.step().answer().status()).isEqualTo(429);
    assertThat(refused.outcome).isEqualTo(Outcome.REJECTED);
  }

  @Test
  void aZeroShareGroupIsAnswered403() {
    start(
        Map.of(
            "bandwidth.total",
            "100KB/s",
            "bandwidth.groups.bots.share",
            "0%",
            "bandwidth.groups.bots.match.header",
            "X-Bot"));
    Adapter bot = new Adapter(new View().header("X-Bot", "1"));
    assertThat(bot.exchange.step().answer().status()).isEqualTo(403);
    assertThat(bot.outcome).isEqualTo(Outcome.REJECTED);
  }

  @Test
  void theVirtualQueueAnswersAWaitWithItsTokenCookieWhateverThePathParameter() {
    start(
        Map.of(
            "virtualQueue.enabled",
            "true",
            "virtualQueue.paths",
            "/x",
            "virtualQueue.capacity",
            "1"));
    Adapter first = new Adapter(new View());
    assertThat(first.steps).containsExactly(Step.Kind.RUN);
    View withParameter = new View().header("Accept", "text/html");
    withParameter.requestUri = "/x;jsessionid=abc";
    Adapter told = new Adapter(withParameter);
    Answer answer = told.exchange.step().answer();
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.setCookies())
        .singleElement()
        .asString()
        .startsWith("oc_token=")
        .contains("; Path=/x;")
        .doesNotContain("jsessionid")
        .contains("HttpOnly");
    assertThat(told.outcome).isEqualTo(Outcome.REDIRECTED);
    first.complete();
  }

  @Test
  void aBrowsersFormToldToWaitIsKeptWhenTheAdapterReadsItAndAskedForAgainOtherwise() {
    start(
        Map.of(
            "virtualQueue.enabled",
            "true",
            "virtualQueue.paths",
            "/x",
            "virtualQueue.capacity",
            "1"));
    Adapter first = new Adapter(new View());
    View form =
        new View()
            .header("Accept", "text/html")
            .header("Content-Type", "application/x-www-form-urlencoded");
    form.method = "POST";
    form.contentLength = 9;
    Adapter told = new Adapter(form);

    assertThat(told.exchange.formMaxBytes()).isEqualTo(65_536);
    // The fallback, for a body the adapter could not read: send it again.
    assertThat(told.exchange.step().answer().status()).isEqualTo(503);
    Answer kept = told.exchange.answerKeeping(List.of(Map.entry("item", "42")));
    assertThat(kept.status()).isEqualTo(200);
    assertThat(new String(kept.body(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("name=\"item\"")
        .contains("value=\"42\"");
    assertThat(told.outcome).isEqualTo(Outcome.REDIRECTED);
    assertThat(new Adapter(new View()).exchange.formMaxBytes()).isEqualTo(-1);
    first.complete();
  }

  @Test
  void theStopRefusesEveryHeldRequestAndLeavesRunningOnesAlone() {
    Map<String, String> keys = new HashMap<>(SHAPING);
    keys.put("queue.permits", "1");
    start(keys);
    saturate();
    Adapter delayed = new Adapter(new View());
    ticker.advance(Duration.ofSeconds(10));
    timers.runDue();
    Adapter waiting = new Adapter(new View());
    Adapter alsoDelayed = new Adapter(new View());
    assertThat(alsoDelayed.steps).containsExactly(Step.Kind.DELAY);

    runtime.shutdown();

    assertThat(delayed.running).isTrue();
    assertThat(waiting.outcome).isEqualTo(Outcome.EXPIRED);
    assertThat(alsoDelayed.outcome).isEqualTo(Outcome.EXPIRED);
    // Refused for the stop, as the reason says, and answered 503 wherever the container is.
    assertThat(waiting.exchange.tag().reason()).isEqualTo(RejectionReason.SHUTDOWN);
    assertThat(waiting.exchange.rejection().status()).isEqualTo(503);
    assertThat(alsoDelayed.exchange.tag().reason()).isEqualTo(RejectionReason.SHUTDOWN);
    delayed.complete();
    assertThat(runtime.engine().queues().waitingCount()).isZero();
  }

  /**
   * Many requests at random through every path (admission, waits, deadlines, clients leaving,
   * delays, completions): each ends in exactly one outcome, and at rest nothing waits and every
   * permit is free.
   */
  @Test
  void everyPathEndsInExactlyOneOutcome() {
    Map<String, String> keys = new HashMap<>(SHAPING);
    keys.put("queue.permits", "3");
    keys.put("queue.maxWait", "1s");
    start(keys);
    Random random = new Random(17);
    List<Adapter> all = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      Adapter a = new Adapter(new View());
      all.add(a);
      for (Adapter other : all.subList(Math.max(0, all.size() - 20), all.size())) {
        int dice = random.nextInt(10);
        if (other.running && dice < 3) {
          other.complete();
        } else if (dice == 3) {
          other.exchange.left();
        }
      }
      ticker.advance(Duration.ofMillis(random.nextInt(40)));
      timers.runDue();
    }
    for (int round = 0; round < 100; round++) {
      for (Adapter a : all) {
        if (a.running) {
          a.complete();
        }
      }
      ticker.advance(Duration.ofMillis(500));
      timers.runDue();
    }
    for (Adapter a : all) {
      assertThat(a.finishes).as("outcomes of one request").isEqualTo(1);
    }
    long outcomes = 0;
    for (Outcome o : Outcome.values()) {
      outcomes += route().outcomeCount(o);
    }
    assertThat(outcomes).isEqualTo(all.size());
    assertThat(route().arrivalCount()).isLessThanOrEqualTo(all.size());
    assertThat(runtime.engine().queues().waitingCount()).isZero();
    assertThat(runtime.delayedCount()).isZero();
    assertThat(route().endpoint().permits().inUse()).isZero();
  }
}
