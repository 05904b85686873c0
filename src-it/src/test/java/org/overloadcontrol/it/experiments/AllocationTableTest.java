package org.overloadcontrol.it.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AllocationTableTest {

  private static final int[] SHARES = {10, 20, 30, 40};

  @Test
  void thePapersOwnActualAllocationsGiveItsErrorsAndMse() {
    // The paper's four percentages add up to 99.99, hence the 0.01 tolerance.
    double[] paper = {9.48, 19.05, 29.90, 41.56};
    double[][] bytes = new double[4][1];
    for (int c = 0; c < 4; c++) {
      bytes[c][0] = paper[c] * 1000;
    }
    AllocationTable t = AllocationTable.of(SHARES, bytes, 0, 1);
    assertThat(t.errorPoints(0)).isCloseTo(0.52, within(0.01));
    assertThat(t.errorPoints(3)).isCloseTo(1.56, within(0.01));
    assertThat(t.paperMse()).isCloseTo(0.0190, within(5e-5));
  }

  @Test
  void perSecondErrorsDoNotCancelWhereTheTotalsDo() {
    // Second 0: A gets 20 %, D 30 %; second 1: A 0 %, D 50 %. Over both, exactly the shares.
    double[][] bytes = {{20, 0}, {20, 20}, {30, 30}, {30, 50}};
    AllocationTable t = AllocationTable.of(SHARES, bytes, 0, 2);
    assertThat(t.actualPercent(0)).isCloseTo(10, within(1e-9));
    assertThat(t.errorPoints(0)).isCloseTo(0, within(1e-9));
    assertThat(t.meanAbsPerSecondPoints(0)).isCloseTo(10, within(1e-9));
    assertThat(t.meanAbsPerSecondPoints(3)).isCloseTo(10, within(1e-9));
    assertThat(t.paperMse()).isCloseTo(0, within(1e-12));
  }

  @Test
  void secondsWithNothingReceivedAreLeftOut() {
    double[][] bytes = {{10, 0, 0}, {20, 0, 0}, {30, 0, 0}, {40, 0, 0}};
    AllocationTable t = AllocationTable.of(SHARES, bytes, 0, 3);
    assertThat(t.secondCount()).isEqualTo(1);
    assertThat(t.meanAbsPerSecondPoints(2)).isCloseTo(0, within(1e-9));
  }
}
