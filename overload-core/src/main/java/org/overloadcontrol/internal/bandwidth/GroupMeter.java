package org.overloadcontrol.internal.bandwidth;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The measurements of one client group, shared by the requests that shape against it and the
 * manager task (Li &amp; Jamin §V.B/C): b̂ (equation 2, an EWMA of perceived bandwidth), the mean
 * response size (for requests whose size is not known in advance), the active flag that each
 * request sets and the manager clears, and the number of requests in the delayed stage.
 *
 * <p>Concurrency: the averages are doubles kept as bits in {@link AtomicLong}s and updated by a
 * CAS loop, so two completions of the same group, or a completion racing the manager's decay,
 * never lose an update. The flags are plain volatile writes: a lost race between a request
 * setting "active" and the manager clearing it costs one manager period of a stale flag,
 * which the paper's design accepts (§V.C).
 */
final class GroupMeter {

  private final ClientGroup group;
  private final Measure measure;
  // b̂ as THROUGHPUT: bytes per period, averaged by the manager.
  private final AtomicLong throughputBits = new AtomicLong(Double.doubleToRawLongBits(0));
  // b̂ as PER_REQUEST: bytes over response time, averaged per completion (equations 1, 2).
  private final AtomicLong perceivedBits = new AtomicLong(Double.doubleToRawLongBits(0));
  private final LongAdder periodBytes = new LongAdder();
  // When the group's delayed stage is next free: the pacing lane of its delayed responses.
  private final AtomicLong laneFreeAtNanos = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong meanSizeBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
  private final AtomicInteger delayedCount = new AtomicInteger();
  private volatile boolean active;
  private volatile boolean sampledSinceTick;
  final LongAdder admittedCount = new LongAdder();
  final LongAdder delayedTotalCount = new LongAdder();
  final LongAdder refusedCount = new LongAdder();
  final LongAdder bytesTotal = new LongAdder();

  GroupMeter(ClientGroup group, Measure measure) {
    this.group = group;
    this.measure = measure;
  }

  ClientGroup group() {
    return group;
  }

  /** b̂_i in bytes per second, as the configured {@link Measure}. */
  double averageBytesPerSecond() {
    return measure == Measure.THROUGHPUT ? throughputBytesPerSecond() : perceivedBytesPerSecond();
  }

  /** The group's delivered bandwidth, averaged per manager period. */
  double throughputBytesPerSecond() {
    return Double.longBitsToDouble(throughputBits.get());
  }

  /** The per-response perceived bandwidth (equation 1), averaged per completion. */
  double perceivedBytesPerSecond() {
    return Double.longBitsToDouble(perceivedBits.get());
  }

  /** The EWMA of response sizes, or NaN before the first completion. */
  double meanSizeBytes() {
    return Double.longBitsToDouble(meanSizeBits.get());
  }

  boolean isActive() {
    return active;
  }

  void markActive() {
    if (!active) { // skip the write (and its cache-line traffic) when already set
      active = true;
    }
  }

  int delayedCount() {
    return delayedCount.get();
  }

  /**
   * Enters the delayed stage unless {@code limit} requests are already there. The CAS closes
   * the race where two arrivals both read limit − 1 and both enter, exceeding the limit.
   */
  boolean tryEnterStandby(int limit) {
    while (true) {
      int n = delayedCount.get();
      if (n >= limit) {
        return false;
      }
      if (delayedCount.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  void leaveStandby() {
    delayedCount.decrementAndGet();
  }

  /**
   * Places a delayed response in the group's lane and returns how long from {@code nowNanos}
   * it waits. Equation 3 is the delay of one response after the previous one of its client was
   * sent; several delayed responses of one group therefore follow each other: each is released
   * {@code delayNanos} after the lane frees, and holds the lane for {@code sendNanos}, its
   * expected sending time at Â. Back to back, the group gets size / (delay + send) = d_i.
   * The CAS closes the race where two delayed requests of a group read the same free time and
   * are released together, which would double the group's rate.
   */
  long scheduleDelayed(long nowNanos, long delayNanos, long sendNanos) {
    while (true) {
      long free = laneFreeAtNanos.get();
      long start = free == Long.MIN_VALUE ? nowNanos : Math.max(nowNanos, free);
      long release = start + delayNanos;
      if (laneFreeAtNanos.compareAndSet(free, release + sendNanos)) {
        return release - nowNanos;
      }
    }
  }

  /** How long a delayed response arriving at {@code nowNanos} waits for the lane to free. */
  long laneWaitNanos(long nowNanos) {
    long free = laneFreeAtNanos.get();
    return free == Long.MIN_VALUE ? 0 : Math.max(0, free - nowNanos);
  }

  /** Equation 2 with one completed response: perceived bandwidth = bytes / response time. */
  void recordSample(long bytes, long responseNanos, double alpha) {
    double seconds = Math.max(responseNanos, 1_000L) / 1e9; // a zero interval is not infinity
    double perceived = bytes / seconds;
    ewma(perceivedBits, perceived, alpha);
    periodBytes.add(bytes);
    double size = bytes;
    // The first size seeds the mean instead of being averaged into NaN; the CAS keeps a
    // concurrent completion's size from being overwritten.
    while (true) {
      long bits = meanSizeBits.get();
      double old = Double.longBitsToDouble(bits);
      double next = Double.isNaN(old) ? size : alpha * size + (1 - alpha) * old;
      if (meanSizeBits.compareAndSet(bits, Double.doubleToRawLongBits(next))) {
        break;
      }
    }
    bytesTotal.add(bytes);
    sampledSinceTick = true;
  }

  /**
   * The manager's round for this group, {@code elapsedNanos} after the previous one. The
   * delivered bandwidth of the period is averaged in with weight α; an idle group (no request
   * and no completion since the last round) instead has zero averaged in with weight
   * {@code idleAlpha}, for both measures (§V.B). Then both flags are cleared.
   */
  void managerRound(double alpha, double idleAlpha, long elapsedNanos) {
    long bytes = periodBytes.sumThenReset();
    boolean idle = !active && !sampledSinceTick;
    if (idle) {
      ewma(throughputBits, 0, idleAlpha);
      ewma(perceivedBits, 0, idleAlpha);
    } else if (elapsedNanos > 0) {
      ewma(throughputBits, bytes / (elapsedNanos / 1e9), alpha);
    }
    active = false;
    sampledSinceTick = false;
  }

  private static void ewma(AtomicLong bits, double sample, double alpha) {
    // CAS loop: a concurrent completion or decay of the same group must not be overwritten.
    while (true) {
      long old = bits.get();
      double next = alpha * sample + (1 - alpha) * Double.longBitsToDouble(old);
      if (bits.compareAndSet(old, Double.doubleToRawLongBits(next))) {
        return;
      }
    }
  }
}
