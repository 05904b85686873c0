package org.overloadcontrol.internal.admission;

/**
 * Whether the concurrency limit's cuts shortened the executions they were meant to shorten, and
 * the level the limit holds at for a while when they did not. Round state of one {@link
 * ConcurrencyGroup}, used by its round thread only.
 *
 * <p>Why. A cut answers executions that run long because requests queue behind each other for
 * the resource the limit guards: by Little's law, with half as many in flight each waits about
 * half as long. Executions that run long for another reason (the cores taken by the server's
 * own work of refusing a retry storm, a JVM compiling its code, a downstream that is slow
 * whatever it is sent) stay as long at any limit, and cutting on them only refuses more: on a
 * CPU-bound endpoint of 2 ms against a 20 ms target, offered twice the capacity by clients
 * that re-send a refused request at once, the limit went from 200 to 1 in two seconds and
 * stayed there with executions at the target, goodput 0.06 of the capacity, while Netflix's
 * Vegas limit held at 6 with 0.44 (the workload matrix, docs/results.md). The same idea as
 * Vegas's and Gradient2's comparison with the lowest latency seen, but measured on the cuts
 * themselves: two windows that bracket a cut, whose in-flight levels differ by at least a
 * factor {@value #LEVEL_DROP}, say whether fewer in flight ran faster.
 *
 * <p>The test. A series begins at a window that cuts with the target itself missed, the limit
 * reached and its completions running at it ({@link Window#cutsAtLimit}): the reference (its
 * limit, level, median execution over target and completions within target per second). Cuts
 * go on as the step says; once they bring the limit to {@value #LIMIT_DROP} of the reference's
 * or under, the test waits for as many completions as were then in flight (the requests
 * admitted under the higher limits, whose executions the cuts cannot have shortened), and the
 * next window that reached its limit, at {@value #LEVEL_DROP} of the reference's level or
 * under, is compared. Under pure queueing its median falls by the levels' ratio r; if it fell
 * by less than a quarter of that (median ratio over {@code 1 - (1 - r) / 4}), or if the
 * completions within target per second fell under {@value #GOODPUT_KEPT} of the reference's
 * (executions a little shorter, but far fewer of them: the cores went to the refusals, not to
 * the requests the cuts kept out), the cuts did not work. The limit then goes back to the
 * geometric mean of the reference's limit and the tested window's, and is not cut below it for
 * {@value #HOLD_WINDOWS} windows (about 5 s at 100 ms windows); then the test may run again.
 * A held window whose median is under {@value #RELEASE_MEDIAN} of the tested window's ends the
 * hold at once: executions that ran that much shorter with more requests beside them were long
 * in the tested window for a reason that has passed, and the test said nothing. A cold start's
 * first cuts are tested while the JVM still compiles its code (medians 20–40 times the target,
 * then 1–2 a second later): held at 12, a CPU-bound endpoint of 2 ms against a 20 ms target ran
 * at 1.5–2 times its target for five seconds (the workload matrix).
 * Halfway on a log scale, not all the way: a cold start's executions are long at every level
 * while the JVM compiles, and the reference is then the container's 200 threads, far over what
 * a CPU-bound resource carries once warm; the next series, if its cuts do not work either,
 * halves the distance again. A window that does not cut before the limit came that far ends the
 * series; a window of the dead time after a cut (settling) neither starts nor ends one, unless it
 * cut (a deep backlog, {@link ConcurrencyLimit}): that cut is checked like any other. The
 * median, not the p90: a window's tail at a low level is its few largest samples, and a cut that
 * worked must show in the typical request.
 */
final class CutCheck {

  /** How far the limit comes down from the reference's before the test is armed. */
  static final double LIMIT_DROP = 0.5;

  /** The largest ratio of the two windows' levels that tests the cuts. */
  static final double LEVEL_DROP = 0.7;

  /** The share of the queueing-predicted shortening under which a cut did not work. */
  static final double WORKED_SHARE = 0.25;

  /**
   * The share of the reference's completions within target a tested window must keep: cuts
   * that shortened the executions but lost the work done within target did not work either.
   */
  static final double GOODPUT_KEPT = 0.8;

  /**
   * The share of its limit a window's level must reach for its cut to begin a series: after a
   * burst the completions ran at a fraction of the limit and say nothing of it.
   */
  static final double STEADY_LEVEL = 0.7;

  /** Windows the limit holds at a level whose cuts did not work. */
  static final int HOLD_WINDOWS = 50;

  /**
   * The share of the tested window's median under which a held window's median ends the
   * hold: executions that ran this much shorter at a higher level were long in the tested
   * window for a reason that has passed (a JVM compiling its code), so the test said nothing.
   */
  static final double RELEASE_MEDIAN = 0.5;

  /**
   * What the check reads of one window.
   *
   * @param number the window's number
   * @param level the requests the window's completions kept in flight on average (their
   *     executions' sum over the window's length, Little's law), at most the limit: the
   *     concurrency they ran at, which the peak is not after a burst
   * @param goodput the completions within their target, per second
   * @param median the median execution over target, NaN without samples
   * @param p90 the p90 execution over target (unscaled), NaN without samples
   * @param samples the completions
   * @param reached whether the in-flight count reached the limit
   * @param settling whether the window judged only requests admitted before the last cut
   * @param inFlight the requests in flight at the window's end
   */
  record Window(
      long number,
      double level,
      double goodput,
      double median,
      double p90,
      long samples,
      boolean reached,
      boolean settling,
      int inFlight) {

    /**
     * Whether this window's cut may begin a series: the target itself missed by completions
     * that ran at the limit (their level at least {@value #STEADY_LEVEL} of it).
     */
    boolean cutsAtLimit(double before, double next) {
      return next < before && p90 > 1 && reached && level >= STEADY_LEVEL * (int) before;
    }
  }

  private double referenceLevel;
  private double referenceMedian;
  private double referenceGoodput;
  private int referenceLimit;

  /** Completions the test waits for after the limit came down far enough, -1 before. */
  private long awaited = -1;

  private long completed;
  private int holdLimit;
  private long holdUntilWindow;

  /** The median of the window that failed the test (over target), while the limit holds. */
  private double testedMedian;

  /**
   * The limit after {@code w}, which ran under the limit {@code before}, for which the step
   * computed {@code next}.
   */
  double limitAfter(Window w, double before, double next) {
    if (w.number() >= holdUntilWindow) {
      holdLimit = 0;
    }
    long completedBefore = completed;
    completed += w.samples();
    if (holdLimit > 0
        && !w.settling()
        && w.samples() >= ConcurrencyGroup.minSamples((int) before)
        && w.median() < RELEASE_MEDIAN * testedMedian) {
      holdLimit = 0;
      holdUntilWindow = w.number();
    }
    if (Double.isNaN(w.median()) || w.settling() || holdLimit > 0) {
      return floored(next);
    }
    if (referenceLimit == 0) {
      if (w.cutsAtLimit(before, next)) {
        reference(w, before);
      }
      return next;
    }
    if (awaited >= 0) {
      if (completedBefore < awaited
          || w.samples() < ConcurrencyGroup.minSamples((int) before)
          || !w.reached()) {
        return next;
      }
      double levels = w.level() / referenceLevel;
      boolean worked =
          w.median() < (1 - (1 - levels) * WORKED_SHARE) * referenceMedian
              && w.goodput() >= GOODPUT_KEPT * referenceGoodput;
      int tested = referenceLimit;
      referenceLimit = 0;
      if (levels <= LEVEL_DROP && !worked) {
        holdLimit = (int) Math.round(Math.sqrt(tested * Math.max(1.0, (int) before)));
        holdUntilWindow = w.number() + HOLD_WINDOWS;
        testedMedian = w.median();
        return Math.max(next, holdLimit);
      }
      if (w.cutsAtLimit(before, next)) {
        reference(w, before);
      }
      return next;
    }
    if (next >= before) {
      referenceLimit = 0;
    } else if (next <= LIMIT_DROP * referenceLimit) {
      awaited = w.inFlight();
      completed = 0;
    }
    return next;
  }

  private void reference(Window w, double before) {
    referenceLevel = Math.max(1e-9, w.level());
    referenceMedian = w.median();
    referenceGoodput = w.goodput();
    referenceLimit = (int) before;
    awaited = -1;
  }

  private double floored(double next) {
    return holdLimit > 0 ? Math.max(next, holdLimit) : next;
  }
}
