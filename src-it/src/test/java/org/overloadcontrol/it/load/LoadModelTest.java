package org.overloadcontrol.it.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LoadModelTest {

  @Test
  void patienceIsTheFixedPartPlusAnExponentialOfTheGivenMean() {
    UserBehaviour users = UserBehaviour.paper().scaled(0.1);
    SplittableRandom random = new SplittableRandom(3);
    double sum = 0;
    long min = Long.MAX_VALUE;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      long t = users.drawTimeoutNanos(random);
      sum += t;
      min = Math.min(min, t);
    }
    assertThat(min).isGreaterThanOrEqualTo(800_000_000L);
    assertThat(sum / n / 1e9).isCloseTo(0.8 + 1.2, within(0.01));
  }

  @Test
  void retriesWithProbabilityPAtMostMTimes() {
    UserBehaviour users = UserBehaviour.paper();
    SplittableRandom random = new SplittableRandom(5);
    int n = 100_000;
    int retried = 0;
    for (int i = 0; i < n; i++) {
      if (users.retries(1, random)) {
        retried++;
      }
    }
    assertThat(retried / (double) n).isCloseTo(0.4, within(0.01));
    // The sixth attempt would be a sixth retry: never.
    for (int i = 0; i < 1000; i++) {
      assertThat(users.retries(6, random)).isFalse();
    }
    assertThat(
            new UserBehaviour(
                    Duration.ofSeconds(1), Duration.ZERO, 1.0, 5, Duration.ZERO, Duration.ZERO)
                .retries(5, random))
        .isTrue();
  }

  @Test
  void spikeScheduleIsBaseThenPeakThenBase() {
    StepSchedule s = StepSchedule.spike(3, 1000, 20, 60);
    assertThat(s.valueAt(0)).isEqualTo(3);
    assertThat(s.valueAt(19.9)).isEqualTo(3);
    assertThat(s.valueAt(20)).isEqualTo(1000);
    assertThat(s.valueAt(59.9)).isEqualTo(1000);
    assertThat(s.valueAt(60)).isEqualTo(3);
    assertThat(s.max()).isEqualTo(1000);
  }

  @Test
  void expectedLoadOfASessionFollowsFromTheChain() {
    SessionModel model = SessionModel.calibrated();
    // Pages plus one cart addition per login.
    double pages = model.expectedVisits().values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(model.requestsPerSession())
        .isCloseTo(pages + model.expectedVisits().get(ShopRequest.LOGIN), within(1e-12));
    // A home-only model: one request of 200 ms.
    SessionModel homeOnly = SessionModel.of(new double[8][8]);
    assertThat(homeOnly.requestsPerSession()).isEqualTo(1.0);
    assertThat(homeOnly.meanServiceMillisPerRequest()).isEqualTo(200.0);
  }
}
