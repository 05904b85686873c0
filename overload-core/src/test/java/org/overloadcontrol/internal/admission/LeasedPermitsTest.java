package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Stripes;

/** The leased permit count of a concurrency limit, on one thread. */
class LeasedPermitsTest {

  /** A bound at which every stripe leases the largest batch. */
  private static final int BOUND = 4 * LeasedPermits.MAX_BATCH * Stripes.COUNT;

  private final LeasedPermits permits = new LeasedPermits();

  @Test
  void aStripeWhoseRequestsComeAndGoWritesOnlyItsOwnPocket() {
    int batch = LeasedPermits.batch(BOUND);
    assertThat(batch).isEqualTo(LeasedPermits.MAX_BATCH);
    assertThat(permits.lease(0, BOUND)).isEqualTo(batch);
    assertThat(permits.inFlight()).isEqualTo(1);
    for (int i = 0; i < 1_000; i++) {
      assertThat(permits.lease(0, BOUND)).isPositive();
      permits.release(0, BOUND);
    }
    // The count was written once, for the first lease; the rest came from the pocket.
    assertThat(permits.committed()).isEqualTo(batch);
    permits.release(0, BOUND);
    assertThat(permits.inFlight()).isZero();
    assertThat(permits.forfeit()).isEqualTo(batch);
    assertThat(permits.committed()).isZero();
  }

  @Test
  void aPocketHoldsAtMostABatchAndReturnsTheRestToTheCount() {
    int batch = LeasedPermits.batch(BOUND);
    int held = 2 * batch + batch / 2;
    for (int i = 0; i < held; i++) {
      assertThat(permits.lease(1, BOUND)).isPositive();
    }
    assertThat(permits.committed()).isEqualTo(3 * batch);
    assertThat(permits.inFlight()).isEqualTo(held);
    for (int i = 0; i < held; i++) {
      permits.release(1, BOUND);
    }
    assertThat(permits.inFlight()).isZero();
    assertThat(permits.committed()).isEqualTo(batch);
  }

  @Test
  void nothingIsLeasedOrSpentFromAPocketAboveTheBound() {
    int batch = LeasedPermits.batch(BOUND);
    assertThat(permits.lease(0, BOUND)).isEqualTo(batch); // its pocket holds batch - 1
    while (permits.committed() <= BOUND) {
      assertThat(permits.tryCommit(permits.committed())).isTrue();
    }
    // Above the bound a pocketed permit could go to a class whose share is taken: the
    // caller must take its permit exactly.
    assertThat(permits.lease(0, BOUND)).isZero();
    assertThat(permits.lease(2, BOUND)).isZero();
    // A permit returned above the bound goes to the count, not to the pocket.
    permits.release(0, BOUND);
    assertThat(permits.committed()).isEqualTo(BOUND);
    assertThat(permits.inFlight()).isEqualTo(BOUND - (batch - 1));
  }

  @Test
  void aBatchNeverTakesTheCountOverTheBound() {
    int batch = LeasedPermits.batch(BOUND);
    while (permits.committed() < BOUND - batch + 1) {
      assertThat(permits.tryCommit(permits.committed())).isTrue();
    }
    assertThat(permits.lease(3, BOUND)).isZero();
    assertThat(permits.committed()).isEqualTo(BOUND - batch + 1);
  }

  @Test
  void aSmallBoundLeasesNothing() {
    int small = 4 * Stripes.COUNT - 1;
    assertThat(LeasedPermits.batch(small)).isEqualTo(1);
    assertThat(permits.lease(0, small)).isZero();
    assertThat(permits.tryCommit(0)).isTrue();
    permits.release(0, small);
    assertThat(permits.committed()).isZero();
  }

  @Test
  void forfeitTakesEveryPocketBack() {
    for (int s = 0; s < Stripes.COUNT; s++) {
      assertThat(permits.lease(s, BOUND)).isPositive();
      permits.release(s, BOUND);
    }
    assertThat(permits.inFlight()).isZero();
    assertThat(permits.committed()).isEqualTo(Stripes.COUNT * LeasedPermits.batch(BOUND));
    assertThat(permits.forfeit()).isEqualTo(Stripes.COUNT * LeasedPermits.batch(BOUND));
    assertThat(permits.committed()).isZero();
    assertThat(permits.forfeit()).isZero();
  }
}
