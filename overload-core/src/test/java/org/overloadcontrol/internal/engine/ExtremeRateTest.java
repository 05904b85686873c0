package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * Issue 33, item 1: the rate controller with a rate too small to count in nanoseconds admitted
 * every request while its status said 1e-300/s. Whatever rate is accepted must hold as
 * configured.
 */
class ExtremeRateTest {

  private static final RequestAttributes GET = TestRequest.get("/", "127.0.0.1");

  private int admittedOfThirty(String rate) {
    FakeTicker ticker = new FakeTicker();
    OverloadEngine engine =
        new OverloadEngine(
            OverloadConfig.of(
                Map.of(
                    "admission.controller",
                    "rate",
                    "controller.rateMin",
                    rate,
                    "controller.initialRate",
                    rate,
                    "endpoints.e.target",
                    "100ms")),
            ticker,
            new AdmissionListener() {});
    int admitted = 0;
    for (int i = 0; i < 30; i++) {
      RequestTag tag = engine.tag(engine.routes().route("e", GET), ticker.read());
      if (engine.arrive(tag) == Decision.ADMIT) {
        admitted++;
        ticker.advance(Duration.ofMillis(10));
        engine.settle(tag, Outcome.COMPLETED, 0);
      }
      // Thirty requests within one controller timeout: the rate is the configured one.
      ticker.advance(Duration.ofMillis(20));
    }
    return admitted;
  }

  @Test
  void aTinyRateAdmitsItsOneTokenAndRefusesTheRest() {
    assertThat(admittedOfThirty("0.05")).isEqualTo(1);
    assertThat(admittedOfThirty("1e-300")).isEqualTo(1);
    assertThat(admittedOfThirty("1e-11")).isEqualTo(1);
  }
}
