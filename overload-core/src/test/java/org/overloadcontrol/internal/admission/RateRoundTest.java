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
 * clock, a bucket or an endpoint. A window carries the estimate with its p90 folded in, as the
 * class's P90Estimator computes it (its own test checks the smoothing).
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

  /** A class at {@code rate}, nothing pending. */
  private static State at(double rate) {
    return new State(rate, 0, 0, false, false);
  }

  /**
   * A round alone at its endpoint and on its resource, with fresh samples of p90 samp, the
   * first with samples (or the first after a restart): the estimate is samp.
   */
  private static Window alone(long samp, double completionsPerSecond) {
    return alone(samp, samp, completionsPerSecond);
  }

  /** As {@link #alone(long, double)}, the estimate after the round {@code cur}. */
  private static Window alone(long samp, double cur, double completionsPerSecond) {
    return new Window(samp, cur, 0, completionsPerSecond, true, true, false, true, false, false);
  }

  @Test
  void thePapersMissDividesTheRateByAdjD() {
    // cur = 0.7·100 + 0.3·300 = 160 ms; err = 0.6
    Next next = RateRound.next(at(100), alone(300 * MS, 160.0 * MS, 0), PAPER);
    assertThat(next.action()).isEqualTo(Action.DECREASE);
    assertThat(next.state().rate()).isCloseTo(100 / 1.2, within(1e-9));
    assertThat(next.error()).isCloseTo(0.6, within(1e-9));
    // The paper marks nothing: every sample keeps judging.
    assertThat(next.cut()).isFalse();
    assertThat(next.missed()).isTrue();
  }

  @Test
  void aMissOnFreshSamplesCutsInProportionAndMarksTheCut() {
    // The first round's estimate is its sample, 400 ms: target / estimate = 1/4.
    Next next = RateRound.next(at(100), alone(400 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.DECREASE);
    assertThat(next.state().rate()).isCloseTo(25.0, within(1e-9));
    assertThat(next.cut()).isTrue();
    assertThat(next.restartEstimate()).isTrue();
    // Deeper than MAX_CUT a round it does not go.
    Next far = RateRound.next(at(100), alone(4_000 * MS, 0), FRESH);
    assertThat(far.state().rate())
        .isCloseTo(100 / EndpointAdmissionController.MAX_CUT, within(1e-9));
  }

  @Test
  void roundsHeldOnStaleSamplesDeepenTheNextCut() {
    State held = new State(100, 0, 2, false, false);
    // A small miss: by adj_d once for this round and once for each held one.
    Next next = RateRound.next(held, alone(110 * MS, 0), FRESH);
    assertThat(next.state().rate()).isCloseTo(100 / Math.pow(1.2, 3), within(1e-9));
    assertThat(next.state().staleRounds()).isZero();
  }

  @Test
  void aCutStopsAtTheRoundsCompletionsOverAdjD() {
    // Completing 90/s: the rate may not go under 75/s.
    Next floored = RateRound.next(at(100), alone(400 * MS, 90), FRESH);
    assertThat(floored.action()).isEqualTo(Action.DECREASE);
    assertThat(floored.state().rate()).isCloseTo(75.0, within(1e-9));
    // Completing more than the rate: held, and the next estimate restarts from its samples.
    Next held = RateRound.next(at(100), alone(400 * MS, 150), FRESH);
    assertThat(held.action()).isEqualTo(Action.HOLD_AT_THROUGHPUT);
    assertThat(held.state().rate()).isEqualTo(100.0);
    assertThat(held.cut()).isFalse();
    assertThat(held.restartEstimate()).isTrue();
    // With other classes or endpoints on the resource the floor is not its own.
    Window shared = new Window(400 * MS, 400 * MS, 0, 150, true, false, false, true, false, false);
    assertThat(RateRound.next(at(100), shared, FRESH).state().rate()).isCloseTo(25.0, within(1e-9));
  }

  @Test
  void farBelowTargetTheRateRisesByTheAdditiveStep() {
    // err = (10 − 100) / 100 = −0.9: rate += −(−0.9 + 0.1)·2 = 1.6
    Next next = RateRound.next(at(50), alone(10 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.INCREASE);
    assertThat(next.state().rate()).isCloseTo(51.6, within(1e-9));
    ClassSettings proportional =
        new ClassSettings(TARGET, ControllerParameters.custom().proportionalIncrease(true).build());
    Next scaled = RateRound.next(at(50), alone(10 * MS, 0), proportional);
    assertThat(scaled.state().rate()).isCloseTo(50 * (1 + 1.6 * 0.1), within(1e-9));
  }

  @Test
  void withinTheDeadBandTheRateHoldsAndLcResets() {
    State counting = new State(50, 7, 0, false, false);
    Next next = RateRound.next(counting, alone(80 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.HOLD);
    assertThat(next.state().rate()).isEqualTo(50.0);
    assertThat(next.state().lc()).isZero();
  }

  @Test
  void aHigherClassesMissSuppressesTheNextIncreaseOnce() {
    State suppressed = new State(50, 0, 0, true, false);
    Next next = RateRound.next(suppressed, alone(10 * MS, 0), FRESH);
    assertThat(next.action()).isEqualTo(Action.INCREASE_SUPPRESSED);
    assertThat(next.state().rate()).isEqualTo(50.0);
    assertThat(next.state().suppressIncrease()).isFalse();
    assertThat(RateRound.next(next.state(), alone(10 * MS, 0), FRESH).action())
        .isEqualTo(Action.INCREASE);
  }

  @Test
  void aQueuedGroupHoldsTheIncrease() {
    Window queued = new Window(10 * MS, 10 * MS, 0, 0, true, false, false, true, false, true);
    Next next = RateRound.next(at(50), queued, FRESH);
    assertThat(next.action()).isEqualTo(Action.HOLD_GROUP_QUEUED);
    assertThat(next.state().rate()).isEqualTo(50.0);
  }

  @Test
  void aMissWithLowerClassesCutsThemInstead() {
    Window lowerAbove =
        new Window(300 * MS, 160 * MS, 0, 0, true, false, true, false, false, false);
    Next next = RateRound.next(at(100), lowerAbove, PAPER);
    assertThat(next.action()).isEqualTo(Action.DECREASE_LOWER);
    assertThat(next.lower()).isEqualTo(Lower.CUT);
    assertThat(next.state().rate()).isEqualTo(100.0);
  }

  @Test
  void withTheLowerClassesAtRateMinLcCountsToItsThresholdThenTheClassCutsItself() {
    Window lowerAtMin = new Window(300 * MS, 160 * MS, 0, 0, true, false, true, true, false, false);
    State s = at(100);
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
    assertThat(RateRound.next(at(100), lowerAtMin, FRESH).action()).isEqualTo(Action.DECREASE);
  }

  @Test
  void staleOnlyRoundsHoldThenForgetTheCut() {
    Window stale = new Window(-1, TARGET, 40, 0, true, true, false, true, false, false);
    State s = at(30);
    Next first = RateRound.next(s, stale, FRESH);
    assertThat(first.action()).isEqualTo(Action.STALE_ONLY);
    assertThat(first.state()).isEqualTo(new State(30, 0, 1, false, false));
    assertThat(first.forgetCut()).isFalse();
    // The restart a cut asked for waits for fresh samples; the round asks for none anew.
    assertThat(first.restartEstimate()).isFalse();
    Next second = RateRound.next(first.state(), stale, FRESH);
    Next third = RateRound.next(second.state(), stale, FRESH);
    assertThat(third.forgetCut()).isTrue();
    assertThat(third.state().staleRounds()).isZero();
    assertThat(third.state().rate()).isEqualTo(30.0);
  }

  @Test
  void withoutSamplesARefusedClassHeldTooLowDoubles() {
    Window none = new Window(-1, Double.NaN, 0, 0, true, true, false, true, false, false);
    State refused = new State(0.5, 0, 0, false, true);
    Next next = RateRound.next(refused, none, FRESH);
    assertThat(next.action()).isEqualTo(Action.DOUBLE_WITHOUT_SAMPLES);
    assertThat(next.state().rate()).isEqualTo(1.0);
    assertThat(next.state().rejected()).isFalse();
    // Not refused, admitted at a round's worth or more, its estimate missing, or a higher class
    // holding it: nothing.
    assertThat(RateRound.next(at(0.5), none, FRESH).action()).isEqualTo(Action.NO_SAMPLES);
    assertThat(RateRound.next(refused.withRate(2), none, FRESH).action())
        .isEqualTo(Action.NO_SAMPLES);
    Window missed = new Window(-1, 2.0 * TARGET, 0, 0, true, true, false, true, false, false);
    assertThat(RateRound.next(refused, missed, FRESH).action()).isEqualTo(Action.NO_SAMPLES);
    Window held = new Window(-1, Double.NaN, 0, 0, true, true, false, true, true, false);
    assertThat(RateRound.next(refused, held, FRESH).action()).isEqualTo(Action.NO_SAMPLES);
    // The paper changes nothing, refused or not.
    assertThat(RateRound.next(refused, none, PAPER).state().rate()).isEqualTo(0.5);
  }

  @Test
  void withoutSamplesTheSuppressionIsSpent() {
    Window none = new Window(-1, Double.NaN, 0, 0, true, true, false, true, false, false);
    State suppressed = new State(0.5, 0, 0, true, true);
    Next next = RateRound.next(suppressed, none, FRESH);
    assertThat(next.action()).isEqualTo(Action.SUPPRESSED_WITHOUT_SAMPLES);
    assertThat(next.state().suppressIncrease()).isFalse();
    assertThat(next.state().rate()).isEqualTo(0.5);
  }

  @Test
  void aMeasuredClassOnlyMeasures() {
    // Far over any target: a class without one, or whose endpoint another algorithm admits,
    // keeps its rate (the smoothing itself is P90EstimatorTest's).
    Next first = RateRound.next(at(100), alone(10_000 * MS, 0), MEASURED);
    assertThat(first.action()).isEqualTo(Action.MEASURED_ONLY);
    assertThat(first.state().rate()).isEqualTo(100.0);
    Window admittedElsewhere =
        new Window(10_000 * MS, 10_000 * MS, 0, 0, false, true, false, true, false, false);
    Next second = RateRound.next(at(100), admittedElsewhere, FRESH);
    assertThat(second.action()).isEqualTo(Action.MEASURED_ONLY);
    assertThat(second.cut()).isFalse();
    assertThat(second.restartEstimate()).isFalse();
  }

  @Test
  void theRateStaysWithinItsBounds() {
    ClassSettings bounded =
        new ClassSettings(
            TARGET, ControllerParameters.custom().paperExact().rateMin(1).rateMax(120).build());
    // cur = 0.7·100 + 0.3·10,000 = 3,070 ms
    assertThat(RateRound.next(at(1), alone(10_000 * MS, 3_070 * MS, 0), bounded).state().rate())
        .isEqualTo(1.0);
    assertThat(RateRound.next(at(120), alone(MS, 0), bounded).state().rate()).isEqualTo(120.0);
  }
}
