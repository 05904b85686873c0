package org.overloadcontrol.internal.admission;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import org.overloadcontrol.internal.base.Stripes;

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
 *
 * <p>Leases, for fast buckets: when the bucket is deep enough (depth &ge; 2 × the stripe
 * count) and a millisecond of its rate is more than one token, a thread that finds its
 * stripe's pocket empty takes a lease of {@code k} tokens in one CAS on {@code tat} (one for
 * itself, {@code k − 1} into its pocket), and the next requests on its stripe spend the pocket
 * by a CAS on memory no other core writes. {@code k} is at most a millisecond of the rate and
 * at most {@code depth / (2 × stripes)}. What a lease changes: a token in one stripe's pocket
 * cannot serve another stripe (at most {@code k − 1} per stripe wait for their own stripe's
 * next request); pockets filled before the bucket refilled add to a burst, at most
 * {@code stripes × (k − 1)} tokens (under a millisecond of the rate per stripe, under half the
 * depth in all); and a rate cut forfeits the pockets, so a cut holds at once. Over time the
 * rate is exact: every token spent was taken from the bucket. With the published defaults
 * (depth 1) no bucket leases;
 * the shared CAS per request was measured to stop two threads from scaling at millions of
 * admissions a second (see docs/performance.md).
 *
 * <p>Extreme rates: the interval and the tolerance are each held to at most
 * {@link #MAX_SPAN_NANOS} (about 36 years), so {@code tat} stays within three such spans of the
 * ticker's reading and no sum here overflows. A rate of 1e-300/s once made an interval of
 * {@code Long.MAX_VALUE}, the next token's time wrapped into the far past, and every request
 * was admitted; now it admits its bucket's tokens (at most two at such a rate: the bucket
 * holds no more than 2^60 ns of its rate beyond the first) and then nothing within a lifetime,
 * as configured. At the other end an interval is at least a nanosecond, so a rate above 1e9/s
 * admits as 1e9/s does.
 */
final class TokenBucket {

  private static final VarHandle POCKET = Stripes.SLOTS;
  private static final long LEASE_SPAN_NANOS = 1_000_000L;

  /** The longest interval, and the longest tolerance, the bucket counts: 2^60 ns. */
  static final long MAX_SPAN_NANOS = 1L << 60;

  private final int depth;
  private final AtomicLong tat;

  /** Tokens leased to each stripe, padded slots; null when the bucket is too shallow to lease. */
  private final long[] pockets;

  private final int maxLease;

  /**
   * When positive, the bucket holds at most this long of its rate (and at least one token):
   * see {@link #TokenBucket(double, int, long, long)}.
   */
  private final long burstSpanNanos;

  private volatile double rate;
  private volatile long intervalNanos;
  private volatile long toleranceNanos;

  /** Tokens per lease; 1 means no leasing at the current rate. */
  private volatile int leaseSize = 1;

  /**
   * Creates a full bucket.
   *
   * @param rate tokens per second, &gt; 0
   * @param depth the most tokens the bucket holds, &ge; 1
   * @param now the ticker reading at creation
   */
  public TokenBucket(double rate, int depth, long now) {
    this(rate, depth, now, 0L);
  }

  /**
   * Creates a full bucket that holds no more than {@code burstSpanNanos} of its rate, and at
   * least one token, whatever its depth: a controller whose round is that long then admits at
   * most a round's worth at once. Several endpoints' buckets on one bottleneck, each full at
   * depth 10 while its rate was a few requests a second, admitted 50 requests of a new class
   * at once into a database that completes 40 a second ({@code TwoClassSpikeTest}).
   *
   * @param burstSpanNanos the longest span of the rate the bucket holds; 0 for {@code depth}
   *     alone
   */
  public TokenBucket(double rate, int depth, long now, long burstSpanNanos) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be >= 1, was " + depth);
    }
    this.depth = depth;
    this.burstSpanNanos = Math.max(0L, burstSpanNanos);
    this.maxLease = depth / (2 * Stripes.COUNT);
    this.pockets = maxLease > 1 ? Stripes.paddedSlots() : null;
    applyRate(rate);
    this.tat = new AtomicLong(now - toleranceNanos);
  }

  /** Takes a token if one is available at {@code now}. */
  public boolean tryAcquire(long now) {
    return tryAcquire(now, Stripes.index());
  }

  /**
   * Takes a token if one is available at {@code now}, from the pocket of stripe
   * {@code stripe} when the bucket leases (the calling thread's, {@code
   * StripedCounts.currentStripe()}, for speed; any stripe is correct).
   */
  public boolean tryAcquire(long now, int stripe) {
    int lease = leaseSize;
    if (lease > 1) {
      int slot = Stripes.slot(stripe & (Stripes.COUNT - 1));
      for (; ; ) {
        long have = (long) POCKET.getVolatile(pockets, slot);
        if (have <= 0) {
          break;
        }
        // Threads that share a stripe may both see the last pocketed token; one gets it.
        if (POCKET.compareAndSet(pockets, slot, have, have - 1)) {
          return true;
        }
      }
      if (take(now, lease)) {
        POCKET.getAndAdd(pockets, slot, (long) lease - 1);
        return true;
      }
    }
    return take(now, 1);
  }

  /** Takes {@code n} tokens from the bucket if all of them are available at {@code now}. */
  private boolean take(long now, int n) {
    long interval = intervalNanos;
    for (; ; ) {
      long current = tat.get();
      long start = Math.max(current, now);
      if (start + (n - 1) * interval - now > toleranceNanos) {
        return false;
      }
      // Two arrivals may see the same tat; the CAS lets only one of them move it, and the
      // loser retries against the new value instead of taking the same token twice.
      if (tat.compareAndSet(current, start + n * interval)) {
        return true;
      }
    }
  }

  /** Tokens a thread takes from the bucket at once at the current rate (1: no leasing). */
  public int leaseSize() {
    return leaseSize;
  }

  /** Nanoseconds from {@code now} until a token is available; zero if one is available now. */
  public long nanosUntilToken(long now) {
    return Math.max(0L, tat.get() - toleranceNanos - now);
  }

  /**
   * A time no earlier than the last token taken: the theoretical arrival time less one
   * interval (it is exactly the last take's time when the bucket was not in debt then, later
   * when it was). A read of two fields, for a controller's round; nothing on the request path.
   */
  public long lastTakeBoundNanos() {
    return tat.get() - intervalNanos;
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
    if (newInterval > oldInterval && pockets != null) {
      // A cut: tokens leased at the old rate are forfeited, so the new rate holds at once.
      for (int i = 0; i < Stripes.COUNT; i++) {
        POCKET.setVolatile(pockets, Stripes.slot(i), 0L);
      }
    }
    double ratio = (double) newInterval / oldInterval;
    for (; ; ) {
      long current = tat.get();
      if (current <= now) {
        return;
      }
      // A debt of one long interval, rescaled to a shorter one, is at most one new interval
      // plus the tolerance; the bound only matters when the old interval was the longest.
      long debt = (long) Math.min((current - now) * ratio, (double) MAX_SPAN_NANOS);
      long rescaled = now + debt;
      // An arrival may have moved tat meanwhile; rescale what it left rather than undo it.
      if (tat.compareAndSet(current, rescaled)) {
        return;
      }
    }
  }

  /** The most tokens the bucket holds at {@code rate}: its depth, or less within its span. */
  private long heldTokens(double rate) {
    if (burstSpanNanos == 0) {
      return depth;
    }
    return Math.max(1L, Math.min(depth, (long) (rate * burstSpanNanos / 1e9)));
  }

  private void applyRate(double newRate) {
    if (!(newRate > 0) || Double.isInfinite(newRate)) {
      throw new IllegalArgumentException("rate must be a finite number > 0, was " + newRate);
    }
    long interval = Math.max(1L, Math.round(Math.min(1e9 / newRate, (double) MAX_SPAN_NANOS)));
    int lease =
        pockets == null
            ? 1
            : (int)
                Math.max(
                    1L,
                    Math.min(
                        Math.min(maxLease, heldTokens(newRate) / (2 * Stripes.COUNT)),
                        LEASE_SPAN_NANOS / interval));
    this.rate = newRate;
    this.intervalNanos = interval;
    long held = heldTokens(newRate) - 1L;
    this.toleranceNanos = held > MAX_SPAN_NANOS / interval ? MAX_SPAN_NANOS : interval * held;
    this.leaseSize = lease;
  }
}
