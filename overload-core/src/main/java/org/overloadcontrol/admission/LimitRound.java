package org.overloadcontrol.admission;

import java.util.Locale;

/**
 * One round of a concurrency group's limit; handed to an {@link AdmissionListener}, for logs
 * and tests, and written at DEBUG on the log {@code org.overloadcontrol.limit}: what the window
 * measured and why the limit moved or held (docs/guide/tuning.md, "Reading the limit's log").
 *
 * @param group the group's name
 * @param nanos when the round ran, on the engine's ticker
 * @param samples execution times recorded in the window
 * @param p90OfTarget their p90 over their class's target, NaN without samples
 * @param reachedLimit whether the in-flight count reached the limit in the window
 * @param limitBefore the limit before the round
 * @param limitAfter the limit after it
 * @param level the requests the window's completions kept in flight on average
 * @param medianOfTarget the samples' median over their class's target, NaN without samples
 * @param queueingShare the share of the median execution that the recent windows put down to
 *     requests queueing behind each other (0 none, 1 all of it), NaN while too few windows at
 *     different levels tell
 * @param processCores the process's CPU time over its cores, averaged over about half a second;
 *     NaN where the platform does not say
 * @param held why the window could not cut the limit, {@link Held#NO} when it could
 */
public record LimitRound(
    String group,
    long nanos,
    long samples,
    double p90OfTarget,
    boolean reachedLimit,
    double limitBefore,
    double limitAfter,
    double level,
    double medianOfTarget,
    double queueingShare,
    double processCores,
    Held held) {

  /** Why a window could not cut the limit (docs/controller.md). */
  public enum Held {
    /** It could: a cut, if any, was the window's own judgement. */
    NO,
    /** Requests admitted under the limit before the last cut were still completing. */
    SETTLING,
    /**
     * The process's cores were saturated by work other than the admitted executions, which do
     * not queue behind each other: a cut would not have shortened them.
     */
    CORES_TAKEN_ELSEWHERE,
    /**
     * Most of what its permits were held went to waiting for a container thread to run on
     * (handed a permit from the wait queue, not yet executing): a cut would not have shortened
     * the executions, only left the resource idle for longer.
     */
    WAITING_FOR_THREADS,
    /**
     * The cut stopped at what the group ran within its targets in its best second of the last
     * ten: under it the resource would idle, whatever made the executions long.
     */
    THROUGHPUT_FLOOR,
    /**
     * The admitted executions were what took the saturated cores, and the cut stopped at the
     * process's cores: under them one would idle.
     */
    KEEPING_CORES_BUSY
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "group '%s' limit %.1f -> %.1f: %d samples, p90 %.2f and median %.2f of target,"
            + " %.1f in flight%s, queueing share %s, process cores %s%s",
        group,
        limitBefore,
        limitAfter,
        samples,
        p90OfTarget,
        medianOfTarget,
        level,
        reachedLimit ? " (limit reached)" : "",
        Double.isNaN(queueingShare) ? "unknown" : String.format(Locale.ROOT, "%.2f", queueingShare),
        Double.isNaN(processCores)
            ? "unknown"
            : String.format(Locale.ROOT, "%.0f %%", 100 * processCores),
        switch (held) {
          case NO -> "";
          case SETTLING -> "; held: settling after a cut";
          case CORES_TAKEN_ELSEWHERE -> "; held: cores taken elsewhere";
          case WAITING_FOR_THREADS -> "; held: waiting for threads";
          case THROUGHPUT_FLOOR -> "; held: at the throughput's floor";
          case KEEPING_CORES_BUSY -> "; held: keeping the cores busy";
        });
  }
}
