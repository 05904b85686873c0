package org.overloadcontrol.internal.admission;

/**
 * What one window of a concurrency group measured, the input of {@link ConcurrencyLimit}'s
 * round.
 *
 * @param p90OfTarget the p90 of execution time over target, NaN without samples
 * @param reached whether the in-flight count reached the enforced limit
 * @param pressed whether some request waited for a permit (true when the limit was reached)
 * @param peakInFlight the largest in-flight count
 * @param settling whether the limit was cut under the requests then in flight and nothing was
 *     admitted since: the window judged requests the cut already answered
 * @param queueing the window's median execution over the lowest median of recent windows (1:
 *     no request queued behind another), NaN when unknown
 * @param cutCannotShorten whether a cut could not shorten the executions: the process's cores
 *     were saturated by work other than them ({@link CoreShare}), or most of what the permits
 *     were held went to waiting for a container thread to run on
 * @param backlog the requests in flight at the window's end over what its completions need by
 *     Little's law (their rate times their targets): above 1, the requests admitted now wait behind
 *     more than their target's worth of work at the rate the window served; NaN when unknown
 */
record LimitWindow(
    double p90OfTarget,
    boolean reached,
    boolean pressed,
    int peakInFlight,
    boolean settling,
    double queueing,
    boolean cutCannotShorten,
    double backlog) {

  /**
   * A window whose cores, as far as it knows, went to the admitted executions, its backlog
   * unknown.
   */
  LimitWindow(
      double p90OfTarget,
      boolean reached,
      boolean pressed,
      int peakInFlight,
      boolean settling,
      double queueing) {
    this(p90OfTarget, reached, pressed, peakInFlight, settling, queueing, false, Double.NaN);
  }
}
