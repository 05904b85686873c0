package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.capacity.CapacityEstimator;
import org.overloadcontrol.internal.capacity.PassiveCapacity;
import org.overloadcontrol.internal.engine.FakeTicker;

class TrainingTest {

  @Test
  void nobodyWaitsDuringTrainingAndArrivalsAndCompletionsAreSampled() {
    FakeTicker ticker = new FakeTicker();
    PassiveCapacity capacity =
        new PassiveCapacity(
            10_000_000_000L, 5, 3, CapacityEstimator.defaults(), Runnable::run, ticker.read());
    VirtualQueue q =
        new VirtualQueue(
            60,
            10,
            1000,
            KeyRing.parse(KeyRing.newEntry("k", new SecureRandom())),
            capacity,
            EpochClock.fixed(ticker, ticker.read(), 1_767_225_600L));
    for (int i = 0; i < 10_000; i++) {
      assertThat(q.decide("192.0.2.1", "/book", null, "book", ticker.read()))
          .isEqualTo(new VirtualQueueDecision.Pass(false));
      q.complete("book", 50_000_000, true, ticker.read());
    }
    assertThat(q.waitCount()).isZero();
    assertThat(q.capacity()).isInfinite();
    assertThat(q.currentWaitSeconds()).isZero();
    assertThat(capacity.state()).isEqualTo(PassiveCapacity.State.TRAINING);
  }
}
