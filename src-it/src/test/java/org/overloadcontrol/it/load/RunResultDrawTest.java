package org.overloadcontrol.it.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The buyers a run owes to its guard, and the spread of the draw around them. */
class RunResultDrawTest {

  private static RunResult run(long started, long refusedAtEntry, long buyers, long lostAtEntry) {
    return new RunResult(
        Duration.ofSeconds(120),
        1,
        Map.of(),
        Map.of(),
        List.of(),
        Map.of(),
        List.of(),
        started,
        refusedAtEntry,
        0,
        0,
        buyers,
        refusedAtEntry,
        0,
        Map.of("refused at entry", lostAtEntry, "timed out", 3L),
        0);
  }

  @Test
  void aQuarterOfTheSessionsAdmittedOweAQuarterOfTheBuyers() {
    RunResult r = run(1000, 750, 40, 28);

    assertThat(r.sessionsAdmitted()).isEqualTo(250);
    assertThat(r.buyersAdmitted()).isEqualTo(12);
    assertThat(r.buyersExpected()).isCloseTo(10.0, within(1e-9));
    // hypergeometric: n K/N (1 − K/N) (N − n)/(N − 1) = 250 · 0.04 · 0.96 · 750/999
    assertThat(r.buyersSpread()).isCloseTo(Math.sqrt(9.6 * 750 / 999), within(1e-9));
  }

  @Test
  void admittingEverySessionLeavesNothingToChance() {
    RunResult r = run(1000, 0, 40, 0);

    assertThat(r.buyersExpected()).isCloseTo(40.0, within(1e-9));
    assertThat(r.buyersSpread()).isZero();
  }
}
