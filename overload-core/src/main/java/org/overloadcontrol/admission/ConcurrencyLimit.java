package org.overloadcontrol.admission;

/**
 * The round of the concurrency-limit admission controller, a pure function of the limit and
 * one window's measurements: how many requests of a resource group may execute at once.
 *
 * <pre>
 *   s  = p90 of (execution time / target) over the window      (1.0 = exactly on target)
 *   L' = L · clamp(setpoint / s, minFactor, maxFactor)          setpoint 0.9, factors 0.8, 1.05
 *   if the in-flight count reached L in the window: L' as above
 *   else if requests waited for another permit (pressed): L' = min(L, peak · min(factor, 1))
 *   else: L' = max(L · clamp(setpoint / s, minFactor, 1), peak) only if s &gt; 1 (target missed),
 *         else L' = L                                        peak = the window's largest in-flight
 *   L' in [minLimit, maxLimit]
 * </pre>
 *
 * <p>Why this shape. A limit on concurrency rather than on rate (Netflix concurrency-limits'
 * {@code Gradient2Limit} and {@code VegasLimit}, Envoy's adaptive concurrency filter) follows a
 * bottleneck whose capacity changes without re-learning a rate: by Little's law the limit is
 * throughput × latency, so one limit per shared resource holds every endpoint behind it, while
 * one rate controller per endpoint (Welsh &amp; Culler 2003) lets each endpoint add its own step
 * and be cut only by its own misses. Unlike Gradient2 and Vegas, which aim at the lowest
 * latency seen (minRTT), the gradient here is against the operator's p90 target, so the
 * limit stops growing exactly when the target would be missed and no more; aiming 10 % under
 * the target leaves room for the window's noise. The multiplicative step makes the controller
 * scale-free (the same number of windows to halve a limit of 4 or of 400) where the paper's
 * additive increase of about 2/s per round is slow at high capacity and coarse at low. The
 * limit grows only when it was reached: a limit that nothing pressed against says nothing
 * about a larger one (the same rule as concurrency-limits' "app limited" check), and without
 * it an idle limit would grow to the maximum and let the next burst in unchecked. A limit
 * nothing pressed against is cut only when the target itself was missed, and no lower than
 * what was in flight: cut for a window whose p90 was merely over the setpoint by noise, it
 * ratcheted down under a healthy load (growth needs the limit reached) until it throttled an
 * endpoint whose p90 was well under its target.
 *
 * <p>Pressed without being reached. When requests waited in the window but the limit was not
 * what held them (the wait queues' own {@code queue.permits} bound lower, as the sample shop's
 * 6 permits do), the load is not healthy, and the limit is judged from what was in flight: it
 * drops to the peak times the cut when the p90 is over the setpoint, and does not grow (it
 * bound nothing). Without this, a limit above a lower permit count was never cut, and the p90
 * sat wherever the permit count put it (1.2–1.4 × the checkout pages' target in the shop's
 * overload sweep).
 *
 * <p>Growth is slower than the cut (1.05 against 0.8 per window): a window's p90 is noisy, and
 * a larger limit shows in the execution times only after the requests it let in have run, so
 * a fast growth overshoots. In the shared-bottleneck simulation (docs/controller.md) a growth
 * of up to 1.25 per window held the execution p90 at 1.04–1.06 of the target instead of the
 * setpoint's 0.9, 1.1 at 0.92–0.96, 1.05 at 0.82–0.89.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConcurrencyLimit {

  private final double setpoint;
  private final double minFactor;
  private final double maxFactor;
  private final int minLimit;
  private final int maxLimit;

  /**
   * @param setpoint the p90 to aim at, as a fraction of the target (0.9)
   * @param minFactor the deepest cut in one window (0.8)
   * @param maxFactor the largest growth in one window (1.05)
   * @param minLimit the lowest limit (1)
   * @param maxLimit the highest limit (the container's threads)
   */
  public ConcurrencyLimit(
      double setpoint, double minFactor, double maxFactor, int minLimit, int maxLimit) {
    if (!(setpoint > 0)
        || !(minFactor > 0 && minFactor < 1)
        || !(maxFactor > 1)
        || minLimit < 1
        || maxLimit < minLimit) {
      throw new IllegalArgumentException(
          "need setpoint > 0, 0 < minFactor < 1 < maxFactor,"
              + " 1 <= minLimit <= maxLimit; was "
              + setpoint
              + ", "
              + minFactor
              + ", "
              + maxFactor
              + ", "
              + minLimit
              + ", "
              + maxLimit);
    }
    this.setpoint = setpoint;
    this.minFactor = minFactor;
    this.maxFactor = maxFactor;
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
  }

  /**
   * The next limit.
   *
   * @param limit the current limit (fractional: the enforced limit is its floor)
   * @param p90OfTarget the window's p90 of execution time over target, NaN without samples
   * @param reachedLimit whether the in-flight count reached the enforced limit in the window
   * @param peakInFlight the largest in-flight count in the window
   */
  public double next(double limit, double p90OfTarget, boolean reachedLimit, int peakInFlight) {
    return next(limit, p90OfTarget, reachedLimit, reachedLimit, peakInFlight);
  }

  /**
   * The next limit.
   *
   * @param limit the current limit (fractional: the enforced limit is its floor)
   * @param p90OfTarget the window's p90 of execution time over target, NaN without samples
   * @param reachedLimit whether the in-flight count reached the enforced limit in the window
   * @param pressed whether some request waited for a permit in the window (true when the
   *     limit was reached)
   * @param peakInFlight the largest in-flight count in the window
   */
  public double next(
      double limit, double p90OfTarget, boolean reachedLimit, boolean pressed, int peakInFlight) {
    if (Double.isNaN(p90OfTarget)) {
      return clamp(limit);
    }
    double factor =
        p90OfTarget <= 0
            ? maxFactor
            : Math.max(minFactor, Math.min(maxFactor, setpoint / p90OfTarget));
    if (reachedLimit) {
      return clamp(limit * factor);
    }
    if (pressed) {
      return factor >= 1 ? clamp(limit) : clamp(Math.min(limit, peakInFlight * factor));
    }
    if (p90OfTarget <= 1.0) {
      return clamp(limit);
    }
    return clamp(Math.max(limit * factor, Math.min(limit, peakInFlight)));
  }

  private double clamp(double limit) {
    return Math.max(minLimit, Math.min(maxLimit, limit));
  }

  public double setpoint() {
    return setpoint;
  }

  public int minLimit() {
    return minLimit;
  }

  public int maxLimit() {
    return maxLimit;
  }
}
