package org.overloadcontrol.admission;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket whose rate a controller tunes: the admission primitive of Welsh &amp; Culler
 * 2003 §3.2 ("adjusting the rate at which new tokens are generated in a token bucket").
 *
 * <p>Concurrency: the bucket is kept as a single theoretical arrival time ({@code tat}) in the
 * style of GCRA, so taking a token is one compare-and-set on one {@code long} with no lock and
 * no allocation. A token accrues every {@code 1/rate} seconds and at most {@code depth} accrue.
 * An arrival at time {@code t} conforms when {@code max(tat, t) − t ≤ (depth − 1)/rate}, and
 * then moves {@code tat} forward by {@code 1/rate}.
 *
 * <p>Rate changes: when the controller changes the rate, the debt {@code tat − now} is rescaled
 * by the ratio of the intervals, so a bucket that ran at rate_min and owes twenty seconds does
 * not keep refusing after the rate has been raised. A request that read the old interval just
 * before the change is charged the old interval; that is one token's difference, and harmless.
 */
public final class TokenBucket {

  private final int depth;
  private final AtomicLong tat;
  private volatile double rate;
  private volatile long intervalNanos;
  private volatile long toleranceNanos;

  /**
   * Creates a full bucket.
   *
   * @param rate tokens per second, &gt; 0
   * @param depth the most tokens the bucket holds, &ge; 1
   * @param now the ticker reading at creation
   */
  public TokenBucket(double rate, int depth, long now) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be >= 1, was " + depth);
    }
    this.depth = depth;
    applyRate(rate);
    this.tat = new AtomicLong(now - toleranceNanos);
  }

  /** Takes a token if one is available at {@code now}. */
  public boolean tryAcquire(long now) {
    for (;;) {
      long current = tat.get();
      long start = Math.max(current, now);
      if (start - now > toleranceNanos) {
        return false;
      }
      // Two arrivals may see the same tat; the CAS lets only one of them move it, and the
      // loser retries against the new value instead of taking the same token twice.
      if (tat.compareAndSet(current, start + intervalNanos)) {
        return true;
      }
    }
  }

  /** Nanoseconds from {@code now} until a token is available; zero if one is available now. */
  public long nanosUntilToken(long now) {
    return Math.max(0L, tat.get() - toleranceNanos - now);
  }

  /** The current rate, tokens per second. */
  public double rate() {
    return rate;
  }

  /** The depth of the bucket. */
  public int depth() {
    return depth;
  }

  /** Sets a new rate, rescaling what the bucket owes so the new rate applies at once. */
  public void setRate(double newRate, long now) {
    long oldInterval = intervalNanos;
    applyRate(newRate);
    long newInterval = intervalNanos;
    if (newInterval == oldInterval) {
      return;
    }
    double ratio = (double) newInterval / oldInterval;
    for (;;) {
      long current = tat.get();
      if (current <= now) {
        return;
      }
      long rescaled = now + (long) ((current - now) * ratio);
      // An arrival may have moved tat meanwhile; rescale what it left rather than undo it.
      if (tat.compareAndSet(current, rescaled)) {
        return;
      }
    }
  }

  private void applyRate(double newRate) {
    if (!(newRate > 0) || Double.isInfinite(newRate)) {
      throw new IllegalArgumentException("rate must be a finite number > 0, was " + newRate);
    }
    long interval = Math.max(1L, Math.round(1e9 / newRate));
    this.rate = newRate;
    this.intervalNanos = interval;
    this.toleranceNanos = interval * (depth - 1L);
  }
}
