package org.overloadcontrol.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A fourth admission algorithm is one class ({@link FixedLimit}) and its registration: the
 * configuration names it, the engine's one factory builds it, and the engine reports each
 * admitted request's outcome to its permit once.
 */
class FixedLimitTest {

  private final FakeTicker ticker = new FakeTicker();

  private OverloadEngine engine(Map<String, String> keys) {
    return OverloadEngine.builder(OverloadConfig.of(keys))
        .ticker(ticker)
        .scheduler(new FakeScheduler(ticker))
        .build();
  }

  private RequestTag arrive(OverloadEngine engine, String endpoint) {
    RequestTag tag =
        engine.tag(
            engine.routes().route(endpoint, TestRequest.get("/", "127.0.0.1")), ticker.read());
    engine.arrive(tag);
    return tag;
  }

  private static final Map<String, String> FIXED_THREE =
      Map.of(
          "admission.controller", "fixed",
          "admission.maxLimit", "3",
          "endpoints.e.target", "100ms");

  @Test
  void admitsTheLimitAtOnceAndRefusesTheNext() {
    OverloadEngine engine = engine(FIXED_THREE);
    List<RequestTag> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(arrive(engine, "e"));
    }
    assertThat(running).extracting(RequestTag::decision).containsOnly(Decision.ADMIT);
    RequestTag fourth = arrive(engine, "e");
    assertThat(fourth.decision()).isEqualTo(Decision.REJECT);
    assertThat(fourth.reason()).isEqualTo(RejectionReason.ADMISSION_LIMIT);
    engine.settle(fourth, Outcome.REJECTED, 0);

    ticker.advance(Duration.ofMillis(50));
    engine.settle(running.get(0), Outcome.COMPLETED, 0);
    assertThat(arrive(engine, "e").decision())
        .as("a completion gives its permit back")
        .isEqualTo(Decision.ADMIT);
    assertThat(arrive(engine, "e").decision()).isEqualTo(Decision.REJECT);
  }

  @Test
  void aPermitsOutcomeCountsOnce() {
    OverloadEngine engine = engine(FIXED_THREE);
    RequestTag first = arrive(engine, "e");
    arrive(engine, "e");
    arrive(engine, "e");

    assertThat(engine.settle(first, Outcome.COMPLETED, 0)).isTrue();
    assertThat(engine.settle(first, Outcome.FAILED, 0)).isFalse();
    assertThat(engine.settle(first, Outcome.EXPIRED, 0)).isFalse();

    assertThat(arrive(engine, "e").decision()).isEqualTo(Decision.ADMIT);
    assertThat(arrive(engine, "e").decision())
        .as("three reports of one request freed one permit, not three")
        .isEqualTo(Decision.REJECT);
  }

  @Test
  void aRefusedRequestHoldsNoPermitAndADroppedOneGivesItsBack() {
    OverloadEngine engine = engine(FIXED_THREE);
    RequestTag a = arrive(engine, "e");
    arrive(engine, "e");
    arrive(engine, "e");
    RequestTag refused = arrive(engine, "e");
    engine.settle(refused, Outcome.REJECTED, 0);
    assertThat(arrive(engine, "e").decision())
        .as("a refusal's outcome returns nothing it did not take")
        .isEqualTo(Decision.REJECT);

    engine.reject(a, RejectionReason.NO_ASYNC);
    engine.settle(a, Outcome.REJECTED, 0);
    assertThat(arrive(engine, "e").decision()).isEqualTo(Decision.ADMIT);
  }

  @Test
  void overItsPermitsAnAdmittedRequestStillWaitsAndItsExpiryIsADrop() {
    FakeScheduler scheduler = new FakeScheduler(ticker);
    OverloadEngine engine =
        OverloadEngine.builder(
                OverloadConfig.of(
                    Map.of(
                        "admission.controller", "fixed",
                        "admission.maxLimit", "2",
                        "queue.permits", "1",
                        "queue.maxWait", "1s",
                        "endpoints.e.target", "100ms")))
            .ticker(ticker)
            .scheduler(scheduler)
            .build();
    RequestTag running = arrive(engine, "e");
    RequestTag waiting = arrive(engine, "e");
    assertThat(running.decision()).isEqualTo(Decision.ADMIT);
    assertThat(waiting.decision())
        .as("admitted by the limiter, it waits for the endpoint's one execution permit")
        .isEqualTo(Decision.WAIT);
    List<String> heard = new ArrayList<>();
    engine.enqueue(
        waiting,
        new Waiter.Listener() {
          @Override
          public void resumed(Waiter w) {
            heard.add("resumed");
          }

          @Override
          public void expired(Waiter w) {
            heard.add("expired");
            engine.settle(waiting, Outcome.EXPIRED, 0);
          }
        });
    assertThat(arrive(engine, "e").decision())
        .as("the waiter holds the limiter's second permit")
        .isEqualTo(Decision.REJECT);

    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(heard).containsExactly("expired");
    assertThat(arrive(engine, "e").decision())
        .as("the expiry gave the waiter's permit back")
        .isEqualTo(Decision.WAIT);
  }

  @Test
  void aGroupChoosesItAndTheOthersKeepTheirController() {
    OverloadEngine engine =
        engine(
            Map.of(
                "admission.groups.pay.endpoints", "pay",
                "admission.groups.pay.controller", "fixed",
                "admission.groups.pay.maxLimit", "1",
                "endpoints.pay.target", "100ms",
                "endpoints.search.target", "100ms"));
    assertThat(arrive(engine, "pay").decision()).isEqualTo(Decision.ADMIT);
    assertThat(arrive(engine, "pay").decision()).isEqualTo(Decision.REJECT);
    for (int i = 0; i < 5; i++) {
      assertThat(arrive(engine, "search").decision()).isEqualTo(Decision.ADMIT);
    }
    assertThat(engine.endpoint("search").concurrencyGroup())
        .as("the default group keeps its concurrency limit")
        .isNotNull();
    assertThat(engine.endpoint("pay").concurrencyGroup()).isNull();
  }

  @Test
  void anUnknownNameListsTheRegisteredOnes() {
    assertThatThrownBy(
            () -> AdmissionSettings.from(OverloadConfig.of(Map.of("admission.controller", "x"))))
        .hasMessageContaining("allowed: concurrency, rate, queue-threshold, fixed");
  }
}
