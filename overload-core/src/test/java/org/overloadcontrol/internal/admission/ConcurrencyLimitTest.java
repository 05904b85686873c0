package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The pure round of the concurrency limit. */
class ConcurrencyLimitTest {

  private final ConcurrencyLimit limit = new ConcurrencyLimit(0.9, 0.8, 1.05, 1, 200);

  @Test
  void cutsByTheRatioOfSetpointToP90ButNoDeeperThanTheLeastFactor() {
    assertThat(limit.next(100, 1.0, true, 100)).isCloseTo(90, within(1e-9));
    assertThat(limit.next(100, 2.0, true, 100)).isCloseTo(80, within(1e-9));
    assertThat(limit.next(100, 2.25, true, 100)).isCloseTo(80, within(1e-9));
  }

  @Test
  void aGrossMissCutsHalfTheWayLittlesLawPointsDownToHalfAWindow() {
    // 3 × the target: 2 · 0.9 / 3 = 0.6 of the limit, where 0.8 held it before.
    assertThat(limit.next(100, 3.0, true, 100)).isCloseTo(60, within(1e-9));
    // 37 × the target (150 in flight on a resource that meets it at 4): half, no deeper.
    assertThat(limit.next(150, 37.0, true, 150)).isCloseTo(75, within(1e-9));
    // A limit nothing reached falls as fast toward what ran, and no lower.
    assertThat(limit.next(200, 37.0, false, 60)).isCloseTo(100, within(1e-9));
    assertThat(limit.next(100, 37.0, false, 60)).isCloseTo(60, within(1e-9));
    // A least factor configured deeper than the gross cut's floor still holds.
    assertThat(new ConcurrencyLimit(0.9, 0.3, 1.05, 1, 200).next(100, 37.0, true, 100))
        .isCloseTo(30, within(1e-9));
  }

  @Test
  void growsOnlyWhenTheLimitWasReached() {
    assertThat(limit.next(10, 0.3, false, 4)).isEqualTo(10);
    assertThat(limit.next(10, 0.3, true, 10)).isCloseTo(10.5, within(1e-9));
    assertThat(limit.next(10, 0.88, true, 10)).isCloseTo(10 * 0.9 / 0.88, within(1e-9));
  }

  @Test
  void aLimitNothingReachedIsCutOnlyForAMissedTargetAndNotBelowWhatRan() {
    assertThat(limit.next(100, 0.95, false, 6)).isEqualTo(100); // over the setpoint: noise
    assertThat(limit.next(100, 1.2, false, 95)).isCloseTo(95, within(1e-9));
    assertThat(limit.next(100, 1.2, false, 6)).isCloseTo(80, within(1e-9));
  }

  @Test
  void withAnIdleHeadroomAnIdleLimitComesDownTowardThatManyTimesWhatRan() {
    ConcurrencyLimit idle = new ConcurrencyLimit(0.9, 0.8, 1.05, 1, 200, 2.0);
    // The maximum it starts at, three requests in flight: 0.8 a window, down to 6.
    assertThat(idle.next(200, 0.3, false, 3)).isCloseTo(160, within(1e-9));
    assertThat(idle.next(7, 0.3, false, 3)).isCloseTo(6, within(1e-9));
    // Within twice what ran it stays, and it never rises without being reached.
    assertThat(idle.next(100, 0.5, false, 60)).isEqualTo(100);
    assertThat(idle.next(100, 0.95, false, 50)).isEqualTo(100);
    // No samples, nothing learnt: it stays.
    assertThat(idle.next(200, Double.NaN, false, 0)).isEqualTo(200);
    // Pressed by another bound (the wait queues' permits), or reached, as without it.
    assertThat(idle.next(100, 0.5, false, true, 6)).isEqualTo(100);
    assertThat(idle.next(10, 0.3, true, 10)).isCloseTo(10.5, within(1e-9));
    // Off, the default: an idle limit stays where it is.
    assertThat(limit.next(200, 0.3, false, 3)).isEqualTo(200);
  }

  @Test
  void aLimitAboveALowerPermitCountIsCutFromWhatRanWhenRequestsWaited() {
    // 6 permits of the wait queues bound, the limit of 100 did not: requests waited, the p90
    // was over the setpoint, so the limit drops under what ran, and binds from now on.
    assertThat(limit.next(100, 0.95, false, true, 6)).isCloseTo(6 * 0.9 / 0.95, within(1e-9));
    assertThat(limit.next(100, 0.95, false, true, 6)).isLessThan(6);
    // Under the setpoint it neither grows nor falls: it bound nothing.
    assertThat(limit.next(100, 0.5, false, true, 6)).isEqualTo(100);
    // Without waits, as before: the setpoint's noise does not cut it.
    assertThat(limit.next(100, 0.95, false, false, 6)).isEqualTo(100);
  }

  @Test
  void aReachedLimitWhoseRequestsDoNotQueueGrowsByItsSquareRootBesidesItsStep() {
    // No queueing (median at the recent lowest), p90 half the target: 5 % and √L.
    assertThat(limit.next(1, new LimitWindow(0.5, true, true, 1, false, 1.0)))
        .isCloseTo(1.05 + 1, within(1e-9));
    assertThat(limit.next(100, new LimitWindow(0.5, true, true, 100, false, 1.0)))
        .isCloseTo(105 + 10, within(1e-9));
    // Half way between no queueing (1.1) and queueing (1.25): half the square root.
    assertThat(limit.next(100, new LimitWindow(0.5, true, true, 100, false, 1.175)))
        .isCloseTo(105 + 5, within(1e-9));
    // Queueing, queueing unknown, or over the setpoint: the multiplicative step alone.
    assertThat(limit.next(10, new LimitWindow(0.5, true, true, 10, false, 1.3)))
        .isCloseTo(10.5, within(1e-9));
    assertThat(limit.next(100, new LimitWindow(0.5, true, true, 100, false, Double.NaN)))
        .isCloseTo(105, within(1e-9));
    assertThat(limit.next(100, new LimitWindow(0.95, true, true, 100, false, 1.0)))
        .isCloseTo(100 * 0.9 / 0.95, within(1e-9));
  }

  @Test
  void aReachedLimitThatAlreadyKeepsAQueueDoesNotGrowButIsStillCut() {
    // 20 in flight at 2.5 times the lowest median: 12 wait, over 6 · log10 20 = 7.8.
    assertThat(limit.next(20, new LimitWindow(0.5, true, true, 20, false, 2.5))).isEqualTo(20);
    assertThat(limit.next(20, new LimitWindow(1.2, true, true, 20, false, 2.5)))
        .isCloseTo(16, within(1e-9));
    // 12 in flight at 1.5 times: 4 wait, under 6. It grows.
    assertThat(limit.next(12, new LimitWindow(0.5, true, true, 12, false, 1.5)))
        .isCloseTo(12.6, within(1e-9));
    // 100 at 1.2 times: the median's noise, not a queue (17 "waiting" by the estimate).
    assertThat(limit.next(100, new LimitWindow(0.5, true, true, 100, false, 1.2)))
        .isGreaterThan(100);
  }

  @Test
  void whileSettlingAfterACutTheLimitIsNotCutAgainButMayGrow() {
    assertThat(limit.next(60, new LimitWindow(3.0, true, true, 80, true, 1.0))).isEqualTo(60);
    assertThat(limit.next(60, new LimitWindow(3.0, true, true, 80, false, 1.0)))
        .isCloseTo(36, within(1e-9));
    assertThat(limit.next(60, new LimitWindow(0.5, true, true, 60, true, 1.0))).isGreaterThan(60);
  }

  @Test
  void whileSettlingADeepBacklogIsCutByHalfAtMostAndNotUnderTwenty() {
    // Pressed, not reached: requests in flight over the limit, the peak over it.
    LimitWindow deep = new LimitWindow(3.0, false, true, 150, true, 1.0, false, 3.0);
    assertThat(limit.next(60, deep)).as("the gradient's cut, 0.6").isCloseTo(36, within(1e-9));
    assertThat(limit.next(60, new LimitWindow(9.0, false, true, 150, true, 1.0, false, 3.0)))
        .as("by half at most")
        .isCloseTo(30, within(1e-9));
    assertThat(limit.next(30, deep)).as("not under 20").isCloseTo(20, within(1e-9));
    assertThat(limit.next(20, deep)).as("under 20 the dead time holds").isEqualTo(20);
    LimitWindow shallow = new LimitWindow(3.0, false, true, 150, true, 1.0, false, 2.0);
    assertThat(limit.next(60, shallow)).as("twice the need is not deep").isEqualTo(60);
  }

  @Test
  void holdsWithoutSamplesAndStaysWithinItsBounds() {
    assertThat(limit.next(10, Double.NaN, true, 10)).isEqualTo(10);
    assertThat(limit.next(1, 9.0, true, 1)).isEqualTo(1);
    assertThat(limit.next(199, 0.1, true, 199)).isEqualTo(200);
  }
}
