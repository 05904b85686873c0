package org.overloadcontrol.internal.admission;

/**
 * The lowest limit a cut may leave a concurrency group: what the group ran within its targets
 * in its best second of the last {@value #SECONDS}. Per second of windows, the smaller of two
 * counts: the requests it kept in flight on average, and what its completions within target
 * need by Little's law if each took twice the shortest median execution of recent windows, but
 * never more than half its target (its completions per second times that time). The floor is
 * the largest of these over the last {@value #SECONDS} seconds.
 *
 * <p>Why. A cut answers executions that are long because requests queue behind each other; at
 * a limit under what the resource serves at once (a downstream pool's connections, the threads
 * of a method that waits on a remote call) nothing queues, and a cut only idles the resource.
 * Executions long for another reason (a 1-s stall of every call, the cores taken by clients that
 * re-send every refusal at once) cut a limit all the same: behind a pool of 8 (20 ms a call,
 * 385 a second, target 100 ms) the limit fell to 1 during a 1-s stall and to 6–8 under three
 * times the capacity, and the pool, running 1–8 requests, served 0.03–0.78 of what it serves,
 * for 8 s after the stall and to the end of the step; Vegas, whose limit stayed at 6–10, was back
 * at all of it within a second of the stall and served all of it within the target at 3×.
 *
 * <p>The shortest execution times the completions is the resource's bandwidth-delay product
 * (TCP BBR's operating point: the bottleneck's rate times the round trip without a queue, where
 * the resource is just full); twice it leaves a queue of about one execution, as Vegas keeps a few
 * requests queued. At the floor, if the group completes as many as it did, by Little's law each
 * execution takes at most twice the shortest, and at most half its target: the half keeps that
 * bound within the target when the throughput falls by up to half. A resource that slowed down
 * for good by more than that runs over its target until the seconds it served faster leave the
 * ten. The in-flight count keeps the floor at what actually ran. A second with nothing within
 * target leaves no floor, so a cold start, whose first executions are all late, is cut as
 * before.
 *
 * <p>Round state: used by the round's thread only.
 */
final class ThroughputFloor {

  /** The seconds the floor remembers. */
  static final int SECONDS = 10;

  /** The most of Little's law's need at the target that the floor allows. */
  static final double SHARE_OF_NEED = 0.5;

  /** The floor's executions over the shortest median: a queue of about one execution. */
  static final double SHORTEST_EXECUTIONS = 2.0;

  private static final long SECOND_NANOS = 1_000_000_000L;

  private final double[] floors = new double[SECONDS];
  private final long[] ends = new long[SECONDS];
  private int next;
  private long secondNanos;
  private double neededNanos;
  private double inFlightNanos;

  /**
   * The share of a completion's target that the floor counts it for: twice the shortest median
   * execution over target of recent windows, at most {@value #SHARE_OF_NEED}.
   */
  static double shareOfNeed(double shortestMedianOfTarget) {
    return Math.min(SHARE_OF_NEED, SHORTEST_EXECUTIONS * shortestMedianOfTarget);
  }

  /**
   * Adds a window.
   *
   * @param now when the window closed
   * @param windowNanos its length
   * @param neededNanos its completions within target, each counted for its target times {@link
   *     #shareOfNeed}, summed
   * @param inFlight the requests its completions kept in flight on average
   */
  void add(long now, long windowNanos, double neededNanos, double inFlight) {
    long length = Math.max(0, windowNanos);
    secondNanos += length;
    this.neededNanos += neededNanos;
    inFlightNanos += inFlight * length;
    if (secondNanos >= SECOND_NANOS) {
      floors[next] = Math.min(this.neededNanos, inFlightNanos) / secondNanos;
      ends[next] = now;
      next = (next + 1) % SECONDS;
      secondNanos = 0;
      this.neededNanos = 0;
      inFlightNanos = 0;
    }
  }

  /** The floor at {@code now}: the largest of the seconds that ended in the last ten; 0 if none. */
  double limit(long now) {
    double floor = 0;
    for (int i = 0; i < SECONDS; i++) {
      if (now - ends[i] <= SECONDS * SECOND_NANOS && floors[i] > floor) {
        floor = floors[i];
      }
    }
    return floor;
  }
}
