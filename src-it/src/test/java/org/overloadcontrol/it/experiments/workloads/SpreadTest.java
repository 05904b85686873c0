package org.overloadcontrol.it.experiments.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A repeated cell's figure: median and range, runs without a value left out. */
class SpreadTest {

  @Test
  void theMedianOfAnOddCountIsTheMiddleRunAndOfAnEvenOneTheMeanOfTheTwo() {
    assertThat(Spread.of(List.of(0.61, 0.37, 0.46))).isEqualTo(new Spread(0.46, 0.37, 0.61, 3));
    assertThat(Spread.of(List.of(0.9, 0.1, 0.5, 0.3)).median()).isEqualTo(0.4);
  }

  @Test
  void aRunWithoutTheFigureIsLeftOutAndNoneLeavesADash() {
    Spread s = Spread.of(List.of(Double.NaN, 0.2, 0.4));
    assertThat(s.median()).isCloseTo(0.3, within(1e-12));
    assertThat(s.runs()).isEqualTo(2);
    assertThat(Spread.of(List.of(Double.NaN)).format("%.2f")).isEqualTo("–");
  }

  @Test
  void itReadsAsMedianThenRange() {
    assertThat(Spread.of(List.of(0.61, 0.37, 0.46)).format("%.2f")).isEqualTo("0.46 (0.37–0.61)");
    assertThat(Spread.of(List.of(0.5, 0.5)).format("%.2f")).isEqualTo("0.50");
    assertThat(Spread.of(List.of(12.0)).format("%.0f")).isEqualTo("12");
    double never = Double.POSITIVE_INFINITY;
    assertThat(Spread.of(List.of(never, 2.0, never)).format("%.2f"))
        .isEqualTo("never (2.00–never)");
  }
}
