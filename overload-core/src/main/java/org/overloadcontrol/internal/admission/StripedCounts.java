package org.overloadcontrol.internal.admission;

import org.overloadcontrol.internal.base.Stripes;

/**
 * A fixed set of event counters, striped per thread ({@link Stripes}): the counters of one
 * stripe share one padded 128-byte slot, so a request that bumps two of them (its arrival, then
 * its outcome) writes one cache line, not one line per counter as a {@code LongAdder} each
 * would. Increments are atomic (counts are exact); a read sums the stripes and, like
 * {@code LongAdder.sum()}, is not a snapshot under concurrent updates.
 */
public final class StripedCounts {

  /** Counters per set: the longs of one stripe's slot. */
  public static final int MAX_COUNTERS = Stripes.PAD;

  private final long[] slots = Stripes.paddedSlots();
  private final int counters;

  /** A set of {@code counters} counters, indexed from 0. */
  public StripedCounts(int counters) {
    if (counters < 1 || counters > MAX_COUNTERS) {
      throw new IllegalArgumentException(
          "counters must be in [1, " + MAX_COUNTERS + "], was " + counters);
    }
    this.counters = counters;
  }

  /** Adds {@code delta} to {@code counter} in the calling thread's stripe. */
  public void add(int counter, long delta) {
    add(Stripes.index(), counter, delta);
  }

  /**
   * Adds {@code delta} to {@code counter} in stripe {@code stripe}: any stripe is correct (the
   * add is atomic), the caller's own ({@link #currentStripe()}, looked up once per request and
   * carried along) is fast.
   *
   * @return the stripe's count before the add (not the counter's total)
   */
  public long add(int stripe, int counter, long delta) {
    return (long)
        Stripes.SLOTS.getAndAdd(
            slots, Stripes.slot(stripe & (Stripes.COUNT - 1)) + checked(counter), delta);
  }

  /**
   * The calling thread's stripe. A thread-local look-up: about 15 ns on a request thread of a
   * busy container (measured), so a request looks it up once and passes it on.
   */
  public static int currentStripe() {
    return Stripes.index();
  }

  /** Adds one to {@code counter}. */
  public void increment(int counter) {
    add(counter, 1L);
  }

  /** The sum of {@code counter} over the stripes. */
  public long sum(int counter) {
    int at = checked(counter);
    long sum = 0;
    for (int i = 0; i < Stripes.COUNT; i++) {
      sum += (long) Stripes.SLOTS.getVolatile(slots, Stripes.slot(i) + at);
    }
    return sum;
  }

  private int checked(int counter) {
    if (counter < 0 || counter >= counters) {
      throw new IndexOutOfBoundsException("counter " + counter + " of " + counters);
    }
    return counter;
  }
}
