package org.overloadcontrol.internal.bandwidth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AvailableBandwidthTest {

  static final double B = 100_000;

  @Test
  void unsatisfactionNeedsAnActiveGroupBelowItsAllocation() {
    double[] alloc = {10_000, 40_000};
    assertThat(
            AvailableBandwidth.unsatisfaction(
                new double[] {5_000, 50_000}, alloc, new boolean[] {true, true}))
        .isTrue();
    // Below its share but idle: it does not want more, nobody is unsatisfied.
    assertThat(
            AvailableBandwidth.unsatisfaction(
                new double[] {5_000, 50_000}, alloc, new boolean[] {false, true}))
        .isFalse();
    // Active and at its share: satisfied.
    assertThat(
            AvailableBandwidth.unsatisfaction(
                new double[] {10_000, 50_000}, alloc, new boolean[] {true, true}))
        .isFalse();
  }

  @Test
  void equation5BelowAllocationPushesToTwiceTheShareLessWhatItHas() {
    assertThat(AvailableBandwidth.available(true, 4_000, 10_000, 90_000, B)).isEqualTo(16_000);
  }

  @Test
  void equation5AtOrAboveAllocationIsHeldToTheShare() {
    assertThat(AvailableBandwidth.available(true, 55_000, 40_000, 90_000, B)).isEqualTo(40_000);
    assertThat(AvailableBandwidth.available(true, 40_000, 40_000, 90_000, B)).isEqualTo(40_000);
  }

  @Test
  void equation8WithRemainingBandwidthTheGroupMayTakeWhatOthersLeave() {
    // utilized 70 KB/s of which 30 are this group's: the others use 40, so 60 is available.
    assertThat(AvailableBandwidth.available(false, 30_000, 10_000, 70_000, B)).isEqualTo(60_000);
  }

  @Test
  void equation8WithoutRemainingBandwidthTheGroupGetsItsShare() {
    assertThat(AvailableBandwidth.available(false, 30_000, 20_000, 100_000, B)).isEqualTo(20_000);
    assertThat(AvailableBandwidth.available(false, 30_000, 20_000, 130_000, B)).isEqualTo(20_000);
  }

  @Test
  void equation9ClampsANegativeAvailabilityToZero() {
    // Averages are never negative in practice; equation 9 is the paper's guard against a
    // spike that makes the others' sum exceed B while "remaining" is still positive.
    assertThat(AvailableBandwidth.available(false, -200_000, 10_000, 99_999, B)).isZero();
    assertThat(AvailableBandwidth.available(true, 30_000, 0, 90_000, B)).isZero();
  }

  @Test
  void equation3DelaysByTheDifferenceOfTheTwoTransferTimes() {
    // 10 KB at 10 KB/s takes 1 s; at Â = 100 KB/s 0.1 s; the difference is the delay.
    assertThat(AvailableBandwidth.delayNanos(10_000, 100_000, 10_000))
        .isCloseTo(900_000_000L, within(1L));
  }

  @Test
  void equation3ClampsAtZeroWhenTheGroupMayHaveMoreThanTheServerSends() {
    assertThat(AvailableBandwidth.delayNanos(150_000, 100_000, 10_000)).isZero();
    assertThat(AvailableBandwidth.delayNanos(100_000, 100_000, 10_000)).isZero();
  }

  @Test
  void equation3WithNothingAvailableWaitsForever() {
    assertThat(AvailableBandwidth.delayNanos(0, 100_000, 10_000)).isEqualTo(Long.MAX_VALUE);
    assertThat(AvailableBandwidth.delayNanos(0, 100_000, 0)).isZero();
  }
}
