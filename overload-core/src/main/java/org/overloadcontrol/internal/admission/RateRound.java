package org.overloadcontrol.internal.admission;

import org.overloadcontrol.admission.ControllerRound.Action;

/**
 * One round of a class's response-time controller (Welsh &amp; Culler 2003, §3.2–3.3, with the
 * dead-time rules of {@link EndpointAdmissionController}) as a function of the class's round
 * state and what the round read: the next state, what the round did, and what it asks of the
 * lower classes at the endpoint. No clock, bucket or group: {@link EndpointAdmissionController}
 * reads the window (its p90 and the smoothed estimate, from the class's
 * {@link org.overloadcontrol.internal.measure.P90Estimator}), applies the result, and keeps the
 * group's two steps that must read the group after this round's cuts (a higher class that left,
 * the group's total rate), so that a round can be tested with plain values.
 */
final class RateRound {

  private RateRound() {}

  /**
   * What a class carries from one round to the next.
   *
   * @param rate the admission rate, requests per second
   * @param lc the rounds missed while all lower classes sat at rate_min (§3.3)
   * @param staleRounds rounds in a row that saw only stale samples
   * @param suppressIncrease whether a higher class missed its target since this class's round
   * @param rejected whether the bucket refused an arrival since the last round
   */
  record State(double rate, int lc, int staleRounds, boolean suppressIncrease, boolean rejected) {

    State withRate(double value) {
      return new State(value, lc, staleRounds, suppressIncrease, rejected);
    }
  }

  /**
   * What a round read.
   *
   * @param samp the p90 of the round's fresh samples in nanoseconds, −1 without any
   * @param cur the smoothed p90 estimate with {@code samp} folded in, in nanoseconds; NaN before
   *     the first round with samples
   * @param staleCount the samples left out as stale (arrived before the last cut)
   * @param completionsPerSecond the class's completions per second over the round
   * @param rateControlled whether the endpoint's token buckets admit (else the rounds measure)
   * @param alone whether the class is the only one at its endpoint and the endpoint alone on
   *     its resource: only then is a cut floored at the class's own completions
   * @param anyLower whether a class ranked below this one runs at the endpoint
   * @param allLowerAtMin whether every such class sits at its rate_min
   * @param higherActive whether a class ranked above is active in the resource group
   * @param groupQueued whether the resource group's queue is over the setpoint
   */
  record Window(
      long samp,
      double cur,
      long staleCount,
      double completionsPerSecond,
      boolean rateControlled,
      boolean alone,
      boolean anyLower,
      boolean allLowerAtMin,
      boolean higherActive,
      boolean groupQueued) {

    /** The estimate as the status reads it: −1 before the first round with samples. */
    long estimateNanos() {
      return Double.isNaN(cur) ? -1L : Math.round(cur);
    }
  }

  /** What a missed target asks of the lower classes at the endpoint (§3.3). */
  enum Lower {
    NONE,
    /** Their next round may not raise their rate. */
    SUPPRESS,
    /** Their rates are divided by adjlo_d, and their next round may not raise them. */
    CUT
  }

  /**
   * What a round decided.
   *
   * @param state the class's state after the round
   * @param action what it did
   * @param error {@code (cur − target)/target}, NaN when not computed
   * @param cut whether it cut the class's rate and marks the time (judging on fresh samples)
   * @param forgetCut whether it forgets the last cut: every sample judges again
   * @param restartEstimate whether the next round with samples starts the estimate from them
   * @param lower what it asks of the lower classes
   * @param missed whether the class missed its target (the group's cap then applies)
   */
  record Next(
      State state,
      Action action,
      double error,
      boolean cut,
      boolean forgetCut,
      boolean restartEstimate,
      Lower lower,
      boolean missed) {

    private static Next of(State state, Action action) {
      return new Next(state, action, Double.NaN, false, false, false, Lower.NONE, false);
    }
  }

  /** The round of a class with {@code settings} in state {@code s} that read {@code w}. */
  static Next next(State s, Window w, ClassSettings settings) {
    if (w.samp() < 0) {
      if (w.staleCount() == 0) {
        return withoutSamples(s, w, settings);
      }
      // Only requests admitted before the last cut finished: they cannot tell whether the cut
      // was enough, so hold. If that goes on, forget the cut rather than freeze the rate.
      int stale = s.staleRounds() + 1;
      boolean forget = stale >= EndpointAdmissionController.MAX_STALE_ROUNDS;
      State held =
          new State(s.rate(), s.lc(), forget ? 0 : stale, s.suppressIncrease(), s.rejected());
      return new Next(held, Action.STALE_ONLY, Double.NaN, false, forget, false, Lower.NONE, false);
    }
    ControllerParameters p = settings.parameters();
    // Rounds since the last cut that held on stale samples alone: the paper would have cut in
    // each of them, so a miss now (the first evidence about the cut) cuts for them too.
    int heldRounds = s.staleRounds();
    if (!settings.controlled() || !w.rateControlled()) {
      State measured = new State(s.rate(), s.lc(), 0, s.suppressIncrease(), s.rejected());
      return Next.of(measured, Action.MEASURED_ONLY);
    }
    double err = error(w.cur(), settings.targetNanos());
    State smoothed = new State(s.rate(), s.lc(), 0, false, s.rejected());
    if (err > p.errD()) {
      return missedTarget(smoothed, w, settings, err, heldRounds);
    }
    State met = new State(s.rate(), 0, 0, false, s.rejected());
    Action action;
    if (!(err < p.errI())) {
      action = Action.HOLD;
    } else if (s.suppressIncrease()) {
      action = Action.INCREASE_SUPPRESSED;
    } else if (w.groupQueued()) {
      action = Action.HOLD_GROUP_QUEUED;
    } else {
      double step = (-(err - p.cI())) * p.adjI();
      // Proportional: the same step in per cent at any rate, so a controller at 4× the
      // capacity climbs as many rounds as at 1× (the paper's absolute step of ~2/s was still
      // climbing after 120 s there, and sawtoothed by ±10 % at 80/s).
      double raised = p.proportionalIncrease() ? s.rate() * (1 + step * 0.1) : s.rate() + step;
      met = met.withRate(clamp(raised, p));
      action = Action.INCREASE;
    }
    return new Next(met, action, err, false, false, false, Lower.NONE, false);
  }

  /**
   * A missed target. Lower classes at the endpoint are cut by adjlo_d (or, all at rate_min
   * already, only held), and lc counts the rounds they had nothing left to give; a class with
   * no lower class cuts itself at once.
   */
  private static Next missedTarget(
      State s, Window w, ClassSettings settings, double err, int heldRounds) {
    ControllerParameters p = settings.parameters();
    // The completions floor assumes the class is what fills the server: alone at its endpoint,
    // and its endpoint alone on its resource. With others beside it, each floored at its own
    // share, the floors together held the total above capacity (the shared-bottleneck
    // simulation, one server, 2× to 10×: p90 1.12–1.28 of the target with the floor, 0.92–0.99
    // without, goodput alike), so the cut is the paper's there.
    double floor = w.alone() ? w.completionsPerSecond() : 0.0;
    if (!w.anyLower()) {
      return selfCut(s, w, settings, err, floor, heldRounds, Lower.NONE);
    }
    if (!w.allLowerAtMin()) {
      return new Next(s, Action.DECREASE_LOWER, err, false, false, false, Lower.CUT, true);
    }
    // Judging fresh samples, this round's miss already comes after the lower classes' cuts took
    // effect (stale samples are not judged), and they have nothing left to give: waiting
    // lc_thresh more rounds only lets this class miss. In the two-class experiment (W&C Fig.
    // 14/15) the high class's p90 reached 2.6 s against 100 ms while it waited.
    int threshold = p.judgeOnFreshSamples() ? 1 : p.lcThresh();
    State counted = new State(s.rate(), s.lc() + 1, 0, false, s.rejected());
    if (counted.lc() >= threshold) {
      return selfCut(counted, w, settings, err, floor, heldRounds, Lower.SUPPRESS);
    }
    return new Next(
        counted, Action.COUNT_LOWER_AT_MIN, err, false, false, false, Lower.SUPPRESS, true);
  }

  /**
   * The class cuts its own rate by adj_d. Judging on fresh samples, by adj_d once more for each
   * round since the last cut that held on stale samples alone (the paper would have cut in
   * each, and this is the first evidence that the last cut was not enough), in proportion to
   * the miss when that is deeper, but not below what the class completed per second in the
   * round divided by adj_d: a miss on fresh samples means requests queue, so what the server
   * completed is about what it can do, and a rate a step below it drains the queue. Without
   * this floor the cuts go on until the queue built before the first cut has drained, even on
   * fresh samples (requests admitted just after a cut wait behind it), which alone took the
   * rate to half the capacity in {@code DeadTimeTest}.
   */
  private static Next selfCut(
      State s,
      Window w,
      ClassSettings settings,
      double err,
      double floor,
      int heldRounds,
      Lower lower) {
    ControllerParameters p = settings.parameters();
    double before = s.rate();
    if (!p.judgeOnFreshSamples()) {
      return new Next(
          s.withRate(clamp(before / p.adjD(), p)),
          Action.DECREASE,
          err,
          false,
          false,
          false,
          lower,
          true);
    }
    // In proportion to the miss (target / estimate, at most MAX_CUT a round) when that is
    // deeper than adj_d: a p90 fifteen times the target says more than "cut by 1.2", and
    // waiting for the next round to say it again costs a queue's drain time each round.
    double cut =
        Math.min(
            before / Math.pow(p.adjD(), 1 + heldRounds),
            before
                * Math.max(
                    1.0 / EndpointAdmissionController.MAX_CUT,
                    settings.targetNanos() / (double) w.estimateNanos()));
    double after = clamp(Math.min(before, Math.max(cut, floor / p.adjD())), p);
    if (after < before) {
      // Requests that arrived before the cut are stale from now on, and the estimate restarts
      // from the first round of fresh ones.
      State marked = new State(after, s.lc(), 0, s.suppressIncrease(), s.rejected());
      return new Next(marked, Action.DECREASE, err, true, false, true, lower, true);
    }
    // Not a cut, so no mark; but this round's miss came from the queue the server is draining,
    // and carried into the estimate it would cut the next round, fine or not.
    return new Next(
        s.withRate(after), Action.HOLD_AT_THROUGHPUT, err, false, false, true, lower, true);
  }

  /**
   * A round without samples. The paper changes nothing. Judging on fresh samples, the flag a
   * higher class set is spent here (kept, it would forbid the increase of the next round with
   * samples, which for a class near rate_min is the rare one), and a class whose bucket refused
   * arrivals doubles its rate when it is held too low to be judged: its bucket admits less than
   * one request per round, its last estimate did not miss, and no higher class is active (one
   * that is holds it down on purpose, and gives it back its rate when it leaves). Measured in
   * the two-class experiment (W&amp;C Fig. 14/15): at rate_min, 0.05/s, a class gets a sample
   * every 20 s, and it stayed ~100 % refused for ~25 s after the higher class left. A class
   * admitted at a round's worth of requests or more that still completes none has its requests
   * queued: on a shared bottleneck completions come seconds late, and doubling such classes
   * each round held eight endpoints' rates at several times the database's capacity in the
   * two-class case ({@code TwoClassSpikeTest}).
   */
  private static Next withoutSamples(State s, Window w, ClassSettings settings) {
    ControllerParameters p = settings.parameters();
    State taken = new State(s.rate(), s.lc(), s.staleRounds(), s.suppressIncrease(), false);
    if (!settings.controlled() || !w.rateControlled() || !p.judgeOnFreshSamples()) {
      return Next.of(taken, Action.NO_SAMPLES);
    }
    if (s.suppressIncrease()) {
      State spent = new State(s.rate(), s.lc(), s.staleRounds(), false, false);
      return Next.of(spent, Action.SUPPRESSED_WITHOUT_SAMPLES);
    }
    boolean missed = w.estimateNanos() >= 0 && error(w.cur(), settings.targetNanos()) > p.errD();
    boolean tooLowToJudge = s.rate() * p.timeoutNanos() < 1e9 && !missed && !w.higherActive();
    if (!s.rejected() || s.rate() >= p.rateMax() || !tooLowToJudge) {
      return Next.of(taken, Action.NO_SAMPLES);
    }
    if (w.groupQueued()) {
      return Next.of(taken, Action.HOLD_GROUP_QUEUED);
    }
    return Next.of(taken.withRate(clamp(s.rate() * 2, p)), Action.DOUBLE_WITHOUT_SAMPLES);
  }

  /** {@code (cur − target)/target}. */
  static double error(double cur, long targetNanos) {
    return (cur - targetNanos) / targetNanos;
  }

  /** The rate within [rate_min, rate_max]. */
  static double clamp(double rate, ControllerParameters p) {
    return Math.max(p.rateMin(), Math.min(p.rateMax(), rate));
  }
}
