package org.overloadcontrol.internal.admission;

/**
 * The round of the concurrency-limit admission controller, a pure function of the limit and
 * one window's measurements: how many requests of a resource group may execute at once.
 *
 * <pre>
 *   s  = p90 of (execution time / target) over the window      (1.0 = exactly on target)
 *   L' = L · clamp(setpoint / s, cut(s), maxFactor)             setpoint 0.9, factors 0.8, 1.05
 *   cut(s) = min(minFactor, max(0.5, 2 · setpoint / s))        0.8 up to s = 2.25, 0.5 from 3.6
 *   if the in-flight count reached L in the window: L' as above, but not over L while the
 *         requests queue (q &gt;= 1.25) and L · (1 - 1/q) &gt; 6 · max(1, log10 L)
 *         with q = the window's median execution over the lowest of recent windows
 *   else if requests waited for another permit (pressed): L' = min(L, peak · min(factor, 1))
 *   else if s &gt; 1 (target missed): L' = max(L · clamp(setpoint / s, cut(s), 1), peak)
 *   else: L' = min(L, max(L · minFactor, h · peak))       peak = the window's largest in-flight
 *         with an idle headroom h (admission.idleHeadroom, e.g. 2), else L' = L
 *   in the dead time after a cut: no cut, unless the requests in flight are over twice what
 *         the window's completions need (a deep backlog): L' = max(min(L', L · factor), f(L))
 *         with f(L) = min(L, max(L / 2, 20))
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
 * nothing pressed against is cut for its p90 only when the target itself was missed, no lower than
 * what was in flight: cut for a window whose p90 was merely over the setpoint by noise, it
 * ratcheted down under a healthy load (growth needs the limit reached) until it throttled an
 * endpoint whose p90 was well under its target.
 *
 * <p>An idle limit may come down (opt-in, {@code admission.idleHeadroom}). With a headroom h, a
 * window that met the target with the limit unreached brings the limit down by at most {@code
 * minFactor} toward h times its largest in-flight count (h = 2 is the room concurrency-limits'
 * Vegas and Gradient2 keep: they grow only while at least half the limit is in use). Without
 * it the limit stands at the maximum it starts at, or wherever a past load left it, and a
 * crowd landing at once is admitted whole before a window can close: in the shop's load spike
 * 150 requests behind one database connection, the 1-s p90 at 0.9–2 s for three seconds, and
 * 0.1–0.5 s with h = 2. The price, and why it is not the default: a healthy load that jumps
 * to more than h times what ran within a window waits for the limit to grow at {@code
 * maxFactor} a window, and some of it is refused (a step from a tenth to 0.6 of the capacity in
 * the shared-bottleneck simulation: 1–7 % of the next 5 s refused, none without it).
 *
 * <p>Pressed without being reached. When requests waited in the window but the limit was not
 * what held them (the wait queues' own {@code queue.permits} bound lower, as the sample shop's
 * 6 permits do), the load is not healthy, and the limit is judged from what was in flight: it
 * drops to the peak times the cut when the p90 is over the setpoint, and does not grow (it
 * bound nothing). Without this, a limit above a lower permit count was never cut, and the p90
 * sat wherever the permit count put it (1.2–1.4 × the checkout pages' target in the shop's
 * overload sweep).
 *
 * <p>A gross miss cuts deeper. A window whose p90 is more than 2.5 times the setpoint (2.25 ×
 * the target) is not noise: the resource is queueing, and by Little's law the limit that meets
 * the setpoint is about L · setpoint / s. There the cut follows half that way, 2 · setpoint / s,
 * down to 0.5 a window. At 0.8 a window a flash crowd that found the limit at the container's
 * 200 threads (by default an idle limit never comes down) took 15 windows to bring 150 requests in flight
 * down to the 4–5 a one-connection database serves within its target, and in the shop's load
 * spike (docs/results.md §3) admitted pages ran at 0.4–2 s for about 7 s; at 0.5 it takes 5
 * windows, and the p90 was back under the target 4 s after the crowd landed instead of 10. Below
 * 2.25 × the target nothing changed: the operating range keeps the gentle step.
 *
 * <p>Growth is slower than the cut (1.05 against 0.8 per window): a window's p90 is noisy, and
 * a larger limit shows in the execution times only after the requests it let in have run, so
 * a fast growth overshoots. In the shared-bottleneck simulation (docs/controller.md) a growth
 * of up to 1.25 per window held the execution p90 at 1.04–1.06 of the target instead of the
 * setpoint's 0.9, 1.1 at 0.92–0.96, 1.05 at 0.82–0.89.
 *
 * <p>A deep backlog is cut through the dead time. A window of the dead time after a cut judges
 * requests admitted under the limit before it, and does not cut again (see {@link
 * ConcurrencyGroup}). But when the requests in flight are over twice what the window's
 * completions need by Little's law (their rate times their targets), a request admitted now
 * waits behind more than two targets of work at the rate the group serves, whatever made the
 * executions long: such a window cuts as any other, by half at most and not under 20, where
 * concurrency-limits' Vegas and Gradient2 start. Behind a downstream pool of 8 on a cold JVM
 * (the workload matrix) the limit came down from the container's 196 threads by halves, each
 * waiting seconds for the completions of the requests admitted before it, and a stall 8 s in
 * found it at 33, the executions still at seconds, where Vegas, starting at 20, was back
 * within target. Under 20 the dead time holds as before, and a cut through it that did not
 * shorten the executions (a cold JVM, long at every level) is taken back by {@link CutCheck}.
 *
 * <p>Cores taken elsewhere, permits waiting for threads. A window in which the process's cores
 * were saturated by work other than the admitted executions ({@link CoreShare}: a cold JVM
 * compiling, the container refusing a retry storm), or in which most of what the permits were
 * held went to waiting for a container thread after their hand-over, is not cut, whatever its
 * p90: fewer requests in flight would not shorten the executions, and every cut refuses more. A
 * limit such a window reached grows as one with no queueing does ({@code L · maxFactor + √L}),
 * so that a limit an earlier window cut leaves the few permits that starved the server;
 * requests that take few of the cores cost little more.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConcurrencyLimit {

  /**
   * The deepest cut of a window whose p90 is far over the setpoint: the floor of the gradient
   * in Envoy's adaptive concurrency filter and in concurrency-limits' {@code Gradient2Limit}.
   */
  static final double DEEPEST_GROSS_CUT = 0.5;

  /**
   * The backlog ({@link LimitWindow#backlog}) over which a window of the dead time after a cut
   * still cuts: the requests admitted now wait behind twice their target's worth of work.
   */
  static final double DEEP_BACKLOG = 2.0;

  /**
   * The lowest limit a cut through the dead time leaves: where concurrency-limits' Vegas and
   * Gradient2 start. Under it the dead time holds as before.
   */
  static final int THROUGH_DEAD_TIME_DOWN_TO = 20;

  /** A window's median execution over the recent lowest under which nothing queues. */
  static final double NO_QUEUEING = 1.1;

  /** ... and from which requests queue: the growth is multiplicative only. */
  static final double SOME_QUEUEING = 1.25;

  /**
   * The requests waiting for a busy resource (per decade of the limit) over which a reached limit
   * does not grow: concurrency-limits' {@code VegasLimit}'s beta.
   */
  static final double QUEUE_BOUND = 6;

  /** The deepest cut in one window of an ordinary miss (see "Growth is slower" above). */
  static final double CUT = 0.8;

  /** The largest growth in one window. */
  static final double GROWTH = 1.05;

  /** The lowest limit: one request of the group runs whatever the p90. */
  static final int LOWEST_LIMIT = 1;

  /** The idle headroom that leaves an idle limit where it is (the default). */
  public static final double IDLE_HEADROOM_OFF = Double.POSITIVE_INFINITY;

  private final double setpoint;
  private final double minFactor;
  private final double maxFactor;
  private final int minLimit;
  private final int maxLimit;
  private final double idleHeadroom;

  /**
   * @param setpoint the p90 to aim at, as a fraction of the target (0.9)
   * @param minFactor the deepest cut in one window (0.8)
   * @param maxFactor the largest growth in one window (1.05)
   * @param minLimit the lowest limit (1)
   * @param maxLimit the highest limit (the container's threads)
   */
  public ConcurrencyLimit(
      double setpoint, double minFactor, double maxFactor, int minLimit, int maxLimit) {
    this(setpoint, minFactor, maxFactor, minLimit, maxLimit, IDLE_HEADROOM_OFF);
  }

  /**
   * The engine's limit: the steps of {@link #CUT} and {@link #GROWTH} a window, down to {@link
   * #LOWEST_LIMIT}.
   *
   * @param idleHeadroom see below; {@link #IDLE_HEADROOM_OFF} for none
   */
  public ConcurrencyLimit(double setpoint, int maxLimit, double idleHeadroom) {
    this(setpoint, CUT, GROWTH, LOWEST_LIMIT, maxLimit, idleHeadroom);
  }

  /**
   * As above, with an idle headroom ({@code admission.idleHeadroom}): a window that met the
   * target without reaching the limit brings it down by at most {@code minFactor} toward this
   * many times the window's largest in-flight count; {@link #IDLE_HEADROOM_OFF} leaves it.
   */
  public ConcurrencyLimit(
      double setpoint,
      double minFactor,
      double maxFactor,
      int minLimit,
      int maxLimit,
      double idleHeadroom) {
    if (!(setpoint > 0)
        || !(minFactor > 0 && minFactor < 1)
        || !(maxFactor > 1)
        || minLimit < 1
        || maxLimit < minLimit
        || !(idleHeadroom >= 1)) {
      throw new IllegalArgumentException(
          "need setpoint > 0, 0 < minFactor < 1 < maxFactor,"
              + " 1 <= minLimit <= maxLimit, idleHeadroom >= 1; was "
              + setpoint
              + ", "
              + minFactor
              + ", "
              + maxFactor
              + ", "
              + minLimit
              + ", "
              + maxLimit
              + ", "
              + idleHeadroom);
    }
    this.setpoint = setpoint;
    this.minFactor = minFactor;
    this.maxFactor = maxFactor;
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.idleHeadroom = idleHeadroom;
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
   * The next limit outside a settling time and with no additive growth (queueing unknown).
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
    return next(
        limit,
        new LimitWindow(p90OfTarget, reachedLimit, pressed, peakInFlight, false, Double.NaN));
  }

  /** The next limit after {@code window}. */
  double next(double limit, LimitWindow window) {
    double s = window.p90OfTarget();
    if (Double.isNaN(s)) {
      return clamp(limit);
    }
    if (window.cutCannotShorten()) {
      return clamp(window.reached() ? limit * maxFactor + Math.sqrt(limit) : limit);
    }
    double factor = s <= 0 ? maxFactor : Math.max(deepestCut(s), Math.min(maxFactor, setpoint / s));
    double next;
    if (window.reached()) {
      next = limit * factor + headroom(limit, s, window.queueing());
      if (next > limit && queueFull(limit, window.queueing())) {
        next = limit;
      }
    } else if (window.pressed()) {
      next = factor >= 1 ? limit : Math.min(limit, window.peakInFlight() * factor);
    } else if (s <= 1.0) {
      next = towardIdleCeiling(limit, window.peakInFlight());
    } else {
      next = Math.max(limit * factor, Math.min(limit, window.peakInFlight()));
    }
    if (window.settling()) {
      if (cutsThroughDeadTime(limit, window.backlog())) {
        // The gradient's own cut: in the dead time more requests are in flight than the
        // limit, and the peak says nothing of it.
        next = Math.max(Math.min(next, limit * factor), throughDeadTime(limit));
      } else if (next < limit) {
        next = limit;
      }
    }
    return clamp(next);
  }

  /**
   * The additive part of a reached limit's growth: {@code √L} while the executions show no
   * queueing (the window's median execution within {@value #NO_QUEUEING} times the lowest
   * median of recent windows) and the p90 is under three quarters of the setpoint, fading to
   * nothing at {@value #SOME_QUEUEING} times it. A limit whose requests do not queue says nothing of the
   * resource's capacity but that it was not reached: such a limit (after a cold start, on a
   * method that waits on a remote call) must not take fifteen windows of 5 % to leave 1, which
   * starved a server for tens of seconds. Where requests queue the growth stays multiplicative
   * and gentle: there a window's p90 is noisy and a larger limit shows only after the requests
   * it let in have run (an additive step on a shared bottleneck of two workers, four requests
   * in flight, held the worst endpoint's p90 at 1.13 of its target, 1.10 without it, over
   * 20 seeds at twice the capacity). The square
   * root is the additive term of concurrency-limits' {@code Gradient2Limit} and of Envoy's
   * adaptive concurrency.
   */
  private double headroom(double limit, double p90OfTarget, double queueing) {
    if (!(queueing < SOME_QUEUEING) || p90OfTarget >= setpoint) {
      return 0;
    }
    double clear = Math.min(1.0, (SOME_QUEUEING - queueing) / (SOME_QUEUEING - NO_QUEUEING));
    return Math.sqrt(limit) * clear;
  }

  /**
   * Whether a reached limit already keeps a queue in front of its resource: its requests queue
   * (the window's median execution at least {@value #SOME_QUEUEING} times the lowest of recent
   * windows, q), and the requests that wait rather than run, by Vegas's estimate {@code L · (1 -
   * 1/q)}, are more than {@value #QUEUE_BOUND} · max(1, log10 L), the upper bound of
   * concurrency-limits' {@code VegasLimit}. Such a limit does not grow, whatever its p90: more
   * requests in flight only lengthen the queue, since the resource is already busy. Behind a
   * downstream pool of 8 (20 ms calls, a 100 ms target) the p90 alone let the limit grow to
   * 27–33, where the queue put the p90 at the setpoint and the clients' own delays put a tenth
   * of the responses past the target; with this bound it stops at 21–24, the p90 at 60 ms, the
   * same goodput (the workload simulation; the workload matrix in docs/results.md). Only the
   * growth: a limit above the bound is cut by its p90 as before, so the rule cannot drift under
   * what keeps the resource busy (a hold that also cut, on the median alone, lost goodput in
   * the shop's simulation, docs/history.md). Under {@value #SOME_QUEUEING} the median's noise
   * would read as a queue at a large limit (8 % at 196 is 15 requests).
   */
  private static boolean queueFull(double limit, double queueing) {
    return queueing >= SOME_QUEUEING
        && limit * (1 - 1 / queueing) > QUEUE_BOUND * Math.max(1, Math.log10(limit));
  }

  /**
   * Whether a window of the dead time after a cut may cut {@code limit} again: the requests in
   * flight are a deep backlog ({@link LimitWindow#backlog} over {@value #DEEP_BACKLOG}) and the
   * limit is over {@value #THROUGH_DEAD_TIME_DOWN_TO}.
   */
  private static boolean cutsThroughDeadTime(double limit, double backlog) {
    return backlog > DEEP_BACKLOG && limit > THROUGH_DEAD_TIME_DOWN_TO;
  }

  /**
   * The cut a window of the dead time after a cut may make when the requests in flight are a
   * deep backlog: half the limit, not under {@value #THROUGH_DEAD_TIME_DOWN_TO}, never up.
   */
  private static double throughDeadTime(double limit) {
    return Math.min(limit, Math.max(limit * DEEPEST_GROSS_CUT, THROUGH_DEAD_TIME_DOWN_TO));
  }

  /**
   * The deepest cut one window may make: {@code minFactor}, or, for a p90 so far over the
   * setpoint that no window's noise explains it, half the way Little's law points (a cut to
   * 2 · setpoint / s) but never under {@link #DEEPEST_GROSS_CUT}; a {@code minFactor} deeper
   * than that still holds.
   */
  private double deepestCut(double p90OfTarget) {
    return Math.min(minFactor, Math.max(DEEPEST_GROSS_CUT, 2 * setpoint / p90OfTarget));
  }

  /**
   * A limit nothing pressed, after a window that met the target: down by at most {@code
   * minFactor} toward {@code idleHeadroom} times the window's largest in-flight count, never
   * up. A limit that stood where a past load left it, or at the maximum it starts at, let a
   * flash crowd in whole before the first window could close.
   */
  private double towardIdleCeiling(double limit, int peakInFlight) {
    if (idleHeadroom == IDLE_HEADROOM_OFF) {
      return limit;
    }
    double ceiling = idleHeadroom * peakInFlight;
    return ceiling >= limit ? limit : Math.max(limit * minFactor, ceiling);
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
