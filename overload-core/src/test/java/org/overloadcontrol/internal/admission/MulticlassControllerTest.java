package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * Class-based differentiation, Welsh &amp; Culler 2003 §3.3, with the paper's exact controller
 * ({@code judgeOnFreshSamples} off: these tests feed samples that arrived before the cuts they
 * check, see {@link DeadTimeTest} for the default).
 */
class MulticlassControllerTest {

  private static final long MS = 1_000_000L;
  private static final ClassDefinition GOLD =
      new ClassDefinition("gold", 10, RequestKind.BROWSING, 1);
  private static final ClassDefinition BRONZE =
      new ClassDefinition("bronze", 1, RequestKind.BROWSING, 1);

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();
  private final EndpointAdmissionController controller =
      new EndpointAdmissionController(
          "route",
          c -> new ClassSettings(100 * MS, ControllerParameters.custom().paperExact().build()),
          new AdmissionListener() {
            @Override
            public void onRound(ControllerRound round) {
              rounds.add(round);
            }
          });

  @Test
  void lowerClassIsCutFirstAndTheHigherOnlyAfterLcThreshRounds() {
    ClassController gold = controller.forClass(GOLD, ticker.read());
    ClassController bronze = controller.forClass(BRONZE, ticker.read());

    // Gold misses its target, round after round.
    round(gold, 300 * MS);
    assertThat(last().action()).isEqualTo(Action.DECREASE_LOWER);
    assertThat(bronze.rate()).isCloseTo(100.0 / 10, within(1e-9)); // adjlo_d = 10
    assertThat(gold.rate()).isEqualTo(100.0);

    round(gold, 300 * MS); // bronze 10 → 1
    round(gold, 300 * MS); // 1 → 0.1
    round(gold, 300 * MS); // 0.1 → 0.05 (rate_min)
    assertThat(bronze.rate()).isEqualTo(0.05);
    assertThat(gold.rate()).isEqualTo(100.0);

    // All lower classes at rate_min: lc counts; gold holds for lc_thresh − 1 rounds...
    for (int i = 1; i < 20; i++) {
      round(gold, 300 * MS);
      assertThat(last().action()).isEqualTo(Action.COUNT_LOWER_AT_MIN);
      assertThat(gold.lowerAtMinCount()).isEqualTo(i);
      assertThat(gold.rate()).isEqualTo(100.0);
    }
    // ...and the 20th cuts gold itself by adj_d.
    round(gold, 300 * MS);
    assertThat(last().action()).isEqualTo(Action.DECREASE);
    assertThat(gold.rate()).isCloseTo(100.0 / 1.2, within(1e-9));
    round(gold, 300 * MS);
    assertThat(gold.rate()).isCloseTo(100.0 / 1.2 / 1.2, within(1e-9));

    // Meeting the target (once the EWMA has come down: α = 0.7 takes 7 rounds) resets lc.
    for (int i = 0; i < 6; i++) {
      round(gold, 80 * MS);
      assertThat(gold.lowerAtMinCount()).isPositive();
    }
    round(gold, 80 * MS);
    assertThat(gold.p90().estimateNanos()).isLessThanOrEqualTo(100 * MS);
    assertThat(gold.lowerAtMinCount()).isZero();
  }

  @Test
  void lowerClassMayNotIncreaseInTheRoundAfterAHigherClassMissed() {
    ClassController gold = controller.forClass(GOLD, ticker.read());
    ClassController bronze = controller.forClass(BRONZE, ticker.read());
    round(gold, 300 * MS);
    double cut = bronze.rate();

    round(bronze, 5 * MS); // bronze is fast: would increase, but is flagged
    assertThat(last().action()).isEqualTo(Action.INCREASE_SUPPRESSED);
    assertThat(bronze.rate()).isEqualTo(cut);

    round(bronze, 5 * MS); // the flag lasted one round only
    assertThat(last().action()).isEqualTo(Action.INCREASE);
    assertThat(bronze.rate()).isGreaterThan(cut);
  }

  @Test
  void lowestClassMissingItsTargetCutsItself() {
    controller.forClass(GOLD, ticker.read());
    ClassController bronze = controller.forClass(BRONZE, ticker.read());
    round(bronze, 300 * MS);
    assertThat(last().action()).isEqualTo(Action.DECREASE);
    assertThat(bronze.rate()).isCloseTo(100.0 / 1.2, within(1e-9));
  }

  @Test
  void underSimulatedOverloadTheHigherClassKeepsItsShare() {
    ClassController gold = controller.forClass(GOLD, ticker.read());
    ClassController bronze = controller.forClass(BRONZE, ticker.read());
    SimulatedService service = new SimulatedService(ticker, controller, 100, 10 * MS);
    service.run(new ClassController[] {gold, bronze}, new double[] {60, 300}, 120);

    List<ControllerRound> goldRounds =
        rounds.stream().filter(r -> r.requestClass().equals("gold")).collect(Collectors.toList());
    List<ControllerRound> bronzeRounds =
        rounds.stream().filter(r -> r.requestClass().equals("bronze")).collect(Collectors.toList());
    assertThat(goldRounds).isNotEmpty();
    assertThat(bronzeRounds).isNotEmpty();
    // Gold offers 60/s, within capacity: its rate must end well above bronze's.
    assertThat(gold.rate()).isGreaterThan(bronze.rate() * 2);
    assertThat(rounds).anyMatch(r -> r.action() == Action.DECREASE_LOWER);
  }

  private void round(ClassController c, long responseTime) {
    for (int i = 0; i < 100; i++) {
      ticker.advance(Duration.ofMillis(1));
      controller.record(c, responseTime, ticker.read());
    }
  }

  private ControllerRound last() {
    return rounds.get(rounds.size() - 1);
  }
}
