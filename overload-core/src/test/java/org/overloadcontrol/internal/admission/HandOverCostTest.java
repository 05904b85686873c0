package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link HandOverCost}'s arithmetic on a fake clock. */
class HandOverCostTest {

  private static final long MS = 1_000_000L;

  private final HandOverCost cost = new HandOverCost();

  /** {@code n} requests without a permit, evenly over the second from {@code from}. */
  private void noPermit(long from, int n) {
    for (int i = 0; i < n; i++) {
      cost.foundNoPermit(from + i * (1_000 * MS / n));
    }
  }

  @Test
  void waitingCostsMoreOnceTheRateTimesTheDispatchExceedsOne() {
    cost.dispatched(20 * MS);
    noPermit(-500 * MS, 60); // the ticker's origin is arbitrary
    cost.foundNoPermit(500 * MS); // closes the slot: 61 a second
    assertThat(cost.waitingCostsMore()).isTrue(); // 61 × 0.02 = 1.22

    noPermit(1_500 * MS, 40);
    cost.foundNoPermit(2_500 * MS); // 40 a second: 0.8
    assertThat(cost.waitingCostsMore()).isFalse();
  }

  @Test
  void nothingCostsMoreBeforeTheFirstDispatchOrTheFirstWholeSlot() {
    noPermit(0, 900);
    assertThat(cost.waitingCostsMore()).isFalse(); // the slot is not over
    cost.foundNoPermit(1_000 * MS);
    assertThat(cost.waitingCostsMore()).isFalse(); // no dispatch measured
    cost.dispatched(5 * MS);
    assertThat(cost.waitingCostsMore()).isTrue();
  }

  @Test
  void theDispatchTimeIsARunningMean() {
    noPermit(0, 100);
    cost.foundNoPermit(1_000 * MS); // 101 a second
    cost.dispatched(5 * MS); // 0.5
    assertThat(cost.waitingCostsMore()).isFalse();
    // Seven dispatches of 30 ms bring the mean to 5 + 25 × (1 − (7/8)^7) ≈ 20 ms: 2.0.
    for (int i = 0; i < 7; i++) {
      cost.dispatched(30 * MS);
    }
    assertThat(cost.waitingCostsMore()).isTrue();
  }
}
