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
 * The engine gives the controller each request's arrival, not completion minus response time:
 * a request admitted before a rate cut whose bandwidth delay is left out of its response time
 * must still count as admitted before the cut (docs/controller.md).
 */
class OverloadEngineArrivalTest {

  private static final long MS = 1_000_000L;
  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();
  private final OverloadEngine engine =
      new OverloadEngine(
          OverloadConfig.of(
              Map.of(
                  "endpoints.e.target",
                  "100ms",
                  "controller.initialRate",
                  "1000",
                  "controller.bucketDepth",
                  "1000")),
          ticker,
          new AdmissionListener() {
            @Override
            public void onRound(ControllerRound round) {
              rounds.add(round);
            }
          });

  private RequestTag admitted() {
    RequestTag tag = engine.tag(engine.routes().route("e", NONE), ticker.read());
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    return tag;
  }

  @Test
  void aRequestAdmittedBeforeACutStaysStaleThoughItsDelayIsExcluded() {
    // 100 requests of 400 ms, four times the target: the round cuts the rate.
    List<RequestTag> first = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      first.add(admitted());
      ticker.advance(Duration.ofMillis(1));
    }
    RequestTag beforeCut = admitted();
    ticker.advance(Duration.ofMillis(300));
    for (RequestTag tag : first) {
      engine.settle(tag, Outcome.COMPLETED, 0);
    }
    assertThat(rounds).extracting(ControllerRound::action).containsExactly(Action.DECREASE);
    // Arrived 300 ms before the cut, held 300 ms by bandwidth shaping: completion minus
    // response time would put its arrival after the cut.
    ticker.advance(Duration.ofMillis(1));
    RequestTag afterCut = admitted();
    ticker.advance(Duration.ofMillis(100));
    engine.excludeFromResponseTime(beforeCut, 300 * MS);
    engine.settle(beforeCut, Outcome.COMPLETED, 0);
    engine.settle(afterCut, Outcome.COMPLETED, 0);
    ticker.advance(Duration.ofSeconds(1));
    admitted(); // the timeout's round
    assertThat(rounds).hasSize(2);
    assertThat(rounds.get(1).sampleCount())
        .as("only the request admitted after the cut")
        .isEqualTo(1);
  }
}
