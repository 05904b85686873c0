package org.overloadcontrol.internal.admission;

import org.overloadcontrol.internal.base.Stripes;

/**
 * The permit count of a concurrency limit ({@link ConcurrencyGroup}), with permits leased to
 * the stripes in small batches while the count is low, so that two cores admitting and
 * completing requests do not write one shared word twice per request.
 *
 * <p>Why. An exact count is one word that every admission and every completion changes: with
 * two cores it is a cache line that moves between them on every request (measured in JMH: one
 * thread 68–71 ns per admit and complete, two threads 190–210 ns each, 0.7 × the throughput of
 * one; Netflix concurrency-limits' limiters and Envoy's adaptive concurrency filter keep the
 * same one shared counter). A {@code LongAdder}-style striped count would remove the writes but
 * not the limit check, which must read every stripe, including the lines the other core writes.
 *
 * <p>How. {@link #committed} counts the permits handed out: those held by requests and those
 * lying unused in a stripe's pocket. While the committed count is at most {@code bound} (the
 * caller's: the count under which any request may take a permit), a stripe whose pocket is
 * empty takes {@link #batch} permits at once, one for the request and the rest into its
 * pocket; the next requests of that stripe take from the pocket, and a completion puts its
 * permit back into its stripe's pocket (the request carries the stripe it took from). A stripe
 * whose requests start and finish at the same pace thus writes only its own line. A pocket
 * holds at most a batch; a completion that finds it full returns its permit to the count.
 * Above {@code bound} nothing is leased or pocketed: the caller takes and returns permits one
 * by one on the count ({@link #tryCommit}, {@link #release}), exactly as without leases.
 *
 * <p>What it guarantees. Every permit in use or in a pocket is counted, so the requests in
 * flight never exceed the committed count, and a lease never takes the committed count above
 * {@code bound}: the limit is as hard as with one exact count (a permit is never granted over
 * the limit the acquirer read). What it costs: up to {@link #batch} permits per stripe can lie
 * unused in pockets and count as in flight; the caller takes them back ({@link #forfeit})
 * before refusing a request, so a pocket never makes a request wait or be refused, and
 * pockets fill only while the count is at most {@code bound}, where no request is refused
 * anyway. Readers of the committed count see the pocketed permits too: a round's largest
 * in-flight count can be over by up to {@code batch × stripes} (at most a quarter of the
 * limit) while the count is in the lower half of the limit. {@link #inFlight} subtracts the
 * pockets.
 *
 * <p>Concurrency. The count is one padded word changed by CAS; each pocket is a padded word of
 * its stripe changed by CAS (threads share stripes, see {@link Stripes}), so a permit is never
 * taken from a pocket twice nor lost.
 */
final class LeasedPermits {

  /**
   * The largest batch: a stripe whose requests start and end at the same pace never reaches
   * the count again after its first lease, whatever the batch; a larger one only lets more
   * permits lie unused.
   */
  static final int MAX_BATCH = 8;

  private static final int COUNT_AT = Stripes.PAD;

  private final long[] count = new long[3 * Stripes.PAD];
  private final long[] pockets = Stripes.paddedSlots();

  /**
   * Permits a stripe leases at once when any request may take a permit while the committed
   * count is at most {@code bound}; 1 (no leases) when the bound is too small for every stripe
   * to hold two: the pockets together never hold more than half the bound.
   */
  static int batch(int bound) {
    int b = Math.min(MAX_BATCH, bound / (2 * Stripes.COUNT));
    return b >= 2 ? b : 1;
  }

  /** Permits handed out: in use by requests, or lying in a stripe's pocket. */
  int committed() {
    return (int) (long) Stripes.SLOTS.getVolatile(count, COUNT_AT);
  }

  /** Permits in use by requests: the committed count less the pockets (not a snapshot). */
  int inFlight() {
    long pocketed = 0;
    for (int i = 0; i < Stripes.COUNT; i++) {
      pocketed += (long) Stripes.SLOTS.getVolatile(pockets, Stripes.slot(i));
    }
    return (int) Math.max(0L, committed() - pocketed);
  }

  /**
   * Takes a permit from stripe {@code stripe}'s pocket, or leases a batch into it, if the
   * committed count is at most {@code bound}.
   *
   * @return the committed count after (at least 1), or 0 when the caller must take a permit by
   *     {@link #tryCommit} instead
   */
  int lease(int stripe, int bound) {
    int batch = batch(bound);
    if (batch == 1) {
      return 0;
    }
    long c = (long) Stripes.SLOTS.getVolatile(count, COUNT_AT);
    if (c > bound) {
      return 0;
    }
    int at = Stripes.slot(stripe & (Stripes.COUNT - 1));
    for (long p = (long) Stripes.SLOTS.getVolatile(pockets, at); p > 0; ) {
      // Threads of one stripe race for its pocket; the CAS gives each permit to one of them.
      long seen = (long) Stripes.SLOTS.compareAndExchange(pockets, at, p, p - 1);
      if (seen == p) {
        return (int) c;
      }
      p = seen;
    }
    while (c + batch <= bound) {
      // Acquirers race for the last permits under the bound; the CAS keeps the count exact.
      long seen = (long) Stripes.SLOTS.compareAndExchange(count, COUNT_AT, c, c + batch);
      if (seen == c) {
        Stripes.SLOTS.getAndAdd(pockets, at, (long) batch - 1);
        return (int) (c + batch);
      }
      c = seen;
    }
    return 0;
  }

  /** Takes one permit if the committed count is still {@code expected}: the exact path. */
  boolean tryCommit(int expected) {
    return Stripes.SLOTS.compareAndSet(count, COUNT_AT, (long) expected, (long) expected + 1);
  }

  /**
   * Returns a permit taken in stripe {@code stripe}: into its pocket while the committed count
   * is at most {@code bound} and the pocket holds less than a batch, else to the count.
   */
  void release(int stripe, int bound) {
    int batch = batch(bound);
    if (batch > 1 && (long) Stripes.SLOTS.getVolatile(count, COUNT_AT) <= bound) {
      int at = Stripes.slot(stripe & (Stripes.COUNT - 1));
      for (long p = (long) Stripes.SLOTS.getVolatile(pockets, at); p < batch; ) {
        long seen = (long) Stripes.SLOTS.compareAndExchange(pockets, at, p, p + 1);
        if (seen == p) {
          return;
        }
        p = seen;
      }
    }
    Stripes.SLOTS.getAndAdd(count, COUNT_AT, -1L);
  }

  /**
   * Takes every pocket's permits back into the count, before a request is refused.
   *
   * @return the permits taken back
   */
  int forfeit() {
    long taken = 0;
    for (int i = 0; i < Stripes.COUNT; i++) {
      int at = Stripes.slot(i);
      if ((long) Stripes.SLOTS.getVolatile(pockets, at) > 0) {
        taken += (long) Stripes.SLOTS.getAndSet(pockets, at, 0L);
      }
    }
    if (taken > 0) {
      Stripes.SLOTS.getAndAdd(count, COUNT_AT, -taken);
    }
    return (int) taken;
  }
}
