package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.internal.admission.RateRound.Lower;
import org.overloadcontrol.internal.admission.RateRound.Next;
import org.overloadcontrol.internal.admission.RateRound.State;
import org.overloadcontrol.internal.admission.RateRound.Window;

/**
 * The rate controller's round (Welsh &amp; Culler 2003, §3.2–3.3, and the dead-time rules)
 * alone: a state and a window's readings in, the next state and the action out, without a
 * clock, a bucket or an endpoint.
 */
class RateRoundTest {

  private static final long MS = 1_000_000L;
  private static final long TARGET = 100 * MS;
  private static final ClassSettings FRESH =
      new ClassSettings(TARGET, ControllerParameters.defaults());
  private static final ClassSettings PAPER =
      new ClassSettings(TARGET, ControllerParameters.custom().paperExact().build());
  private static final ClassSettings MEASURED =
      new ClassSettings(0, ControllerParameters.defaults());

  /** A class at 100/s whose estimate is the target, nothing pending. */
  private static State at(double rate, double cur) {
    return new State(rate, cur, 0, 0, false, false, false);
  }

  /** A round alone at its endpoint and on its resource, with fresh samples of p90 samp. */
  private static Window alone(long samp, double completionsPerSecond) {
    return new Window(samp, 0, completionsPerSecond, true, true, false, true, false, false);
  }

  @Test
  void thePapersMissDividesTheRateByAdjD() {
    Next next = RateRound.next(at(100, TARGET), alone(300 * MS, 0), PAPER);
    assertThat(next.action()).isEqualTo(Action.DECREASE);
    assertThat(next.state().rate()).isCloseTo(100 / 1.2, within(1e-9));
    // cur = 0.7·100 + 0.3·300 = 160 ms; err = 0.6
    assertThat(next.state().cur()).isCloseTo(160.0 * MS, within(1.0));
    assertThat(next.error()).isCloseTo(0.6, within(1e-9));
    // The paper marks nothing: every sample keeps judging.
    assertThat(next.cut()).isFalse();
    assertThat(next.missed()).isTrue();
  }

  @Test
  void aMissOnFreshSamplesCutsInProportionAndMarksTheCut() {
    // The first round's estimate is its sample, 400 ms: target / estimate = 1/4.
    Next next = RateRound.next(at(100, Double.NaN), alone(400 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.DECREASE);
    assertThat(next.state().rate()).isCloseTo(25.0, within(1e-9));
    assertThat(next.cut()).isTrue();
    assertThat(next.state().restartEstimate()).isTrue();
    // Deeper than MAX_CUT a round it does not go.
    Next far = RateRound.next(at(100, Double.NaN), alone(4_000 * MS, 0), FRESH);
    assertThat(far.state().rate())
        .isCloseTo(100 / EndpointAdmissionController.MAX_CUT, within(1e-9));
  }

  @Test
  void roundsHeldOnStaleSamplesDeepenTheNextCut() {
    State held = new State(100, Double.NaN, 0, 2, true, false, false);
    // A small miss: by adj_d once for this round and once for each held one.
    Next next = RateRound.next(held, alone(110 * MS, 0), FRESH);
    assertThat(next.state().rate()).isCloseTo(100 / Math.pow(1.2, 3), within(1e-9));
    assertThat(next.state().staleRounds()).isZero();
  }

  @Test
  void aCutStopsAtTheRoundsCompletionsOverAdjD() {
    // Completing 90/s: the rate may not go under 75/s.
    Next floored = RateRound.next(at(100, Double.NaN), alone(400 * MS, 90), FRESH);
    assertThat(floored.action()).isEqualTo(Action.DECREASE);
    assertThat(floored.state().rate()).isCloseTo(75.0, within(1e-9));
    // Completing more than the rate: held, and the next estimate restarts from its samples.
    Next held = RateRound.next(at(100, Double.NaN), alone(400 * MS, 150), FRESH);
    assertThat(held.action()).isEqualTo(Action.HOLD_AT_THROUGHPUT);
    assertThat(held.state().rate()).isEqualTo(100.0);
    assertThat(held.cut()).isFalse();
    assertThat(held.state().restartEstimate()).isTrue();
    // With other classes or endpoints on the resource the floor is not its own.
    Window shared = new Window(400 * MS, 0, 150, true, false, false, true, false, false);
    assertThat(RateRound.next(at(100, Double.NaN), shared, FRESH).state().rate())
        .isCloseTo(25.0, within(1e-9));
  }

  @Test
  void farBelowTargetTheRateRisesByTheAdditiveStep() {
    // err = (10 − 100) / 100 = −0.9: rate += −(−0.9 + 0.1)·2 = 1.6
    Next next = RateRound.next(at(50, Double.NaN), alone(10 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.INCREASE);
    assertThat(next.state().rate()).isCloseTo(51.6, within(1e-9));
    ClassSettings proportional =
        new ClassSettings(TARGET, ControllerParameters.custom().proportionalIncrease(true).build());
    Next scaled = RateRound.next(at(50, Double.NaN), alone(10 * MS, 0), proportional);
    assertThat(scaled.state().rate()).isCloseTo(50 * (1 + 1.6 * 0.1), within(1e-9));
  }

  @Test
  void withinTheDeadBandTheRateHoldsAndLcResets() {
    State counting = new State(50, Double.NaN, 7, 0, false, false, false);
    Next next = RateRound.next(counting, alone(80 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.HOLD);
    assertThat(next.state().rate()).isEqualTo(50.0);
    assertThat(next.state().lc()).isZero();
  }

  @Test
  void aHigherClassesMissSuppressesTheNextIncreaseOnce() {
    State suppressed = new State(50, Double.NaN, 0, 0, false, true, false);
    Next next = RateRound.next(suppressed, alone(10 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.INCREASE_SUPPRESSED);
    assertThat(next.state().rate()).isEqualTo(50.0);
    assertThat(next.state().suppressIncrease()).isFalse();
    assertThat(RateRound.next(next.state(), alone(10 * MS, 0), FRESH).action())
        .isEqualTo(Action.INCREASE);
  }

  @Test
  void aQueuedGroupHoldsTheIncrease() {
    Window queued = new Window(10 * MS, 0, 0, true, false, false, true, false, true);
    Next next = RateRound.next(at(50, Double.NaN), queued, FRESH);
    assertThat(next.action()).isEqualTo(Action.HOLD_GROUP_QUEUED);
    assertThat(next.state().rate()).isEqualTo(50.0);
  }

  @Test
  void aMissWithLowerClassesCutsThemInstead() {
    Window lowerAbove = new Window(300 * MS, 0, 0, true, false, true, false, false, false);
    Next next = RateRound.next(at(100, TARGET), lowerAbove, PAPER);
    assertThat(next.action()).isEqualTo(Action.DECREASE_LOWER);
    assertThat(next.lower()).isEqualTo(Lower.CUT);
    assertThat(next.state().rate()).isEqualTo(100.0);
  }

  @Test
  void withTheLowerClassesAtRateMinLcCountsToItsThresholdThenTheClassCutsItself() {
    Window lowerAtMin = new Window(300 * MS, 0, 0, true, false, true, true, false, false);
    State s = at(100, TARGET);
    for (int i = 1; i < 20; i++) {
      Next next = RateRound.next(s, lowerAtMin, PAPER);
      assertThat(next.action()).isEqualTo(Action.COUNT_LOWER_AT_MIN);
      assertThat(next.lower()).isEqualTo(Lower.SUPPRESS);
      assertThat(next.state().lc()).isEqualTo(i);
      s = next.state();
    }
    Next cut = RateRound.next(s, lowerAtMin, PAPER);
    assertThat(cut.action()).isEqualTo(Action.DECREASE);
    assertThat(cut.state().rate()).isCloseTo(100 / 1.2, within(1e-9));
    // Judging on fresh samples it does not wait.
    assertThat(RateRound.next(at(100, TARGET), lowerAtMin, FRESH).action())
        .isEqualTo(Action.DECREASE);
  }

  @Test
  void staleOnlyRoundsHoldThenForgetTheCut() {
    Window stale = new Window(-1, 40, 0, true, true, false, true, false, false);
    State s = new State(30, TARGET, 0, 0, true, false, false);
    Next first = RateRound.next(s, stale, FRESH);
    assertThat(first.action()).isEqualTo(Action.STALE_ONLY);
    assertThat(first.state()).isEqualTo(new State(30, TARGET, 0, 1, true, false, false));
    assertThat(first.forgetCut()).isFalse();
    Next second = RateRound.next(first.state(), stale, FRESH);
    Next third = RateRound.next(second.state(), stale, FRESH);
    assertThat(third.forgetCut()).isTrue();
    assertThat(third.state().staleRounds()).isZero();
    assertThat(third.state().rate()).isEqualTo(30.0);
  }

  @Test
  void withoutSamplesARefusedClassHeldTooLowDoubles() {
    Window none = new Window(-1, 0, 0, true, true, false, true, false, false);
    State refused = new State(0.5, Double.NaN, 0, 0, false, false, true);
    Next next = RateRound.next(refused, none, FRESH);
    assertThat(next.action()).isEqualTo(Action.DOUBLE_WITHOUT_SAMPLES);
    assertThat(next.state().rate()).isEqualTo(1.0);
    assertThat(next.state().rejected()).isFalse();
    // Not refused, admitted at a round's worth or more, its estimate missing, or a higher class
    // holding it: nothing.
    assertThat(RateRound.next(at(0.5, Double.NaN), none, FRESH).action())
        .isEqualTo(Action.NO_SAMPLES);
    assertThat(RateRound.next(refused.withRate(2), none, FRESH).action())
        .isEqualTo(Action.NO_SAMPLES);
    State missed = new State(0.5, 2.0 * TARGET, 0, 0, false, false, true);
    assertThat(RateRound.next(missed, none, FRESH).action()).isEqualTo(Action.NO_SAMPLES);
    Window held = new Window(-1, 0, 0, true, true, false, true, true, false);
    assertThat(RateRound.next(refused, held, FRESH).action()).isEqualTo(Action.NO_SAMPLES);
    // The paper changes nothing, refused or not.
    assertThat(RateRound.next(refused, none, PAPER).state().rate()).isEqualTo(0.5);
  }

  @Test
  void withoutSamplesTheSuppressionIsSpent() {
    Window none = new Window(-1, 0, 0, true, true, false, true, false, false);
    State suppressed = new State(0.5, Double.NaN, 0, 0, false, true, true);
    Next next = RateRound.next(suppressed, none, FRESH);
    assertThat(next.action()).isEqualTo(Action.SUPPRESSED_WITHOUT_SAMPLES);
    assertThat(next.state().suppressIncrease()).isFalse();
    assertThat(next.state().rate()).isEqualTo(0.5);
  }

  @Test
  void theEstimateSmoothsWithAlphaAndRestartsAfterACut() {
    Next first = RateRound.next(at(100, Double.NaN), alone(100 * MS, 0), MEASURED);
    assertThat(first.action()).isEqualTo(Action.MEASURED_ONLY);
    assertThat(first.state().cur()).isEqualTo(100.0 * MS);
    Next second = RateRound.next(first.state(), alone(200 * MS, 0), MEASURED);
    assertThat(second.state().cur()).isCloseTo(130.0 * MS, within(1.0));
    State restarting = new State(100, 500.0 * MS, 0, 0, true, false, false);
    Next restarted = RateRound.next(restarting, alone(20 * MS, 0), FRESH);
    assertThat(restarted.state().cur()).isEqualTo(20.0 * MS);
    assertThat(restarted.state().restartEstimate()).isFalse();
  }

  @Test
  void theRateStaysWithinItsBounds() {
    ClassSettings bounded =
        new ClassSettings(
            TARGET, ControllerParameters.custom().paperExact().rateMin(1).rateMax(120).build());
    assertThat(RateRound.next(at(1, TARGET), alone(10_000 * MS, 0), bounded).state().rate())
        .isEqualTo(1.0);
    assertThat(RateRound.next(at(120, Double.NaN), alone(MS, 0), bounded).state().rate())
        .isEqualTo(120.0);
  }
}
