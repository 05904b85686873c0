package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * The rate controller's resource group reads its requests in flight from the engine's counts
 * (issue 16, the two-class bars): only requests its buckets admitted count, never the arrival
 * whose admission a round is deciding nor a refused request whose 503 is still being written.
 * Counted from arrival, a class at {@code rateMin} in a group completing under 11 requests a
 * second saw itself queued at every round (one request in flight over 0.9 × the target's worth
 * of completions) and never doubled: in the two-class experiment the rate controller refused
 * 99 % of both classes. The two-class simulation ({@code TwoClassSpike}) counted only admitted
 * requests, and did not show it.
 */
class RateGroupInFlightTest {

  private static final RequestAttributes GET = TestRequest.get("/", "127.0.0.1");

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();
  private final OverloadEngine engine =
      new OverloadEngine(
          OverloadConfig.of(
              Map.of(
                  "admission.controller", "rate",
                  "controller.initialRate", "20",
                  "controller.bucketDepth", "10",
                  "controller.timeout", "100ms",
                  "endpoints.a.target", "100ms",
                  "endpoints.b.target", "100ms")),
          ticker,
          new AdmissionListener() {
            @Override
            public void onRound(ControllerRound round) {
              rounds.add(round);
            }
          });

  private RequestTag tag(String endpoint) {
    return engine.tag(engine.routes().route(endpoint, GET), ticker.read());
  }

  /** Both endpoints serve one request of 20 ms every 200 ms each: the group completes 10/s. */
  private void slowTraffic(int millis) {
    for (int t = 0; t < millis; t += 100) {
      RequestTag request = tag(t % 200 == 0 ? "a" : "b");
      assertThat(engine.arrive(request)).isEqualTo(Decision.ADMIT);
      ticker.advance(Duration.ofMillis(20));
      engine.settle(request, Outcome.COMPLETED, 0);
      ticker.advance(Duration.ofMillis(80));
    }
  }

  private List<Action> actionsOfA(int from) {
    return rounds.subList(from, rounds.size()).stream()
        .filter(r -> r.endpoint().equals("a"))
        .map(ControllerRound::action)
        .toList();
  }

  @Test
  void aClassAtRateMinDoublesAlthoughItsOwnArrivalIsBeingDecided() {
    slowTraffic(2_000);
    EndpointClass a = engine.routes().route("a", GET);
    a.admission.restartRate(a.controller(), 0.05, ticker.read());
    // Nothing is in flight now; a's arrivals every 10 ms are refused, and each round of a is
    // run by one of them, before its admission is decided.
    int before = rounds.size();
    for (int i = 0; i < 50; i++) {
      ticker.advance(Duration.ofMillis(10));
      RequestTag request = tag("a");
      Decision d = engine.arrive(request);
      engine.settle(request, d == Decision.ADMIT ? Outcome.COMPLETED : Outcome.REJECTED, 0);
    }
    assertThat(actionsOfA(before))
        .contains(Action.DOUBLE_WITHOUT_SAMPLES)
        .doesNotContain(Action.HOLD_GROUP_QUEUED);
  }

  @Test
  void aRefusedRequestIsNotInFlightWhileItsRefusalIsWritten() {
    slowTraffic(2_000);
    EndpointClass a = engine.routes().route("a", GET);
    a.admission.restartRate(a.controller(), 0.05, ticker.read());
    // Two refused requests whose 503s are not written yet: neither holds a token.
    List<RequestTag> open = new ArrayList<>();
    while (open.size() < 2) {
      ticker.advance(Duration.ofMillis(1));
      RequestTag request = tag("a");
      if (engine.arrive(request) == Decision.REJECT) {
        open.add(request);
      } else {
        engine.settle(request, Outcome.COMPLETED, 0);
      }
    }
    assertThat(a.inFlight()).isZero();
    open.forEach(t -> engine.settle(t, Outcome.REJECTED, 0));
    assertThat(a.inFlight()).isZero();
    RequestTag admitted = tag("b");
    assertThat(engine.arrive(admitted)).isEqualTo(Decision.ADMIT);
    assertThat(engine.routes().route("b", GET).inFlight()).isEqualTo(1);
    engine.settle(admitted, Outcome.COMPLETED, 0);
    assertThat(engine.routes().route("b", GET).inFlight()).isZero();
  }
}
