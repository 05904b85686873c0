package org.overloadcontrol.internal.admission;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a permit freed for a class is taken sooner by a new request than by a waiter: a
 * waiter handed a permit holds it until its container dispatches it on a thread, while a new
 * request that finds the permit free already has its thread. When the class's requests find no
 * permit faster than one per dispatch time (their rate times the mean dispatch time over 1),
 * a freed permit never stays free long, and a waiter only holds it idle: a request that finds
 * no permit is then refused at once instead of suspended (see {@link
 * ConcurrencyGroup.Partition#roomToWait(long)}). Not from the papers: the LIFO-Pri queues
 * (Singhmar et al. 2004) assume a resumed request runs when its permit frees.
 *
 * <p>Why: from a cold start behind a pool of 8 connections, under clients that re-send a refusal
 * at once, every window of the limit reached 5–14 while 1–3 requests executed; the other permits
 * were held by waiters handed one and waiting 64–470 ms for a Jetty thread behind 1,400–2,700
 * attempts a second (the workload matrix's window log). Turning waiting off only while the
 * hand-overs ran after their deadlines was not enough: in the same storm, hand-overs within
 * their deadlines still held a sixth of the limit, and the pool served 280 a second of its 400.
 * Where requests find no permit a few times a second (clients that honour {@code Retry-After},
 * sessions that think between pages) a waiter keeps the resource busy at each hand-over, as the
 * paper's queues do.
 */
final class HandOverCost {

  /** The span over which the rate of requests that found no permit is counted. */
  static final long SLOT_NANOS = 1_000_000_000L;

  /** The weight of a new dispatch time in the running mean. */
  static final double DISPATCH_WEIGHT = 1.0 / 8;

  private static final long UNSET = Long.MIN_VALUE;

  private final AtomicInteger noPermit = new AtomicInteger();
  private final AtomicLong slotStart = new AtomicLong(UNSET);

  /** Requests that found no permit per nanosecond, over the last whole slot. */
  private volatile double noPermitRate;

  /** The running mean of the dispatch times; negative before the first. */
  private volatile double dispatchNanos = -1;

  /** A request of the class found no permit at {@code now}. */
  void foundNoPermit(long now) {
    noPermit.incrementAndGet();
    long start = slotStart.get();
    if (start == UNSET) {
      slotStart.compareAndSet(UNSET, now);
    } else if (now - start >= SLOT_NANOS && slotStart.compareAndSet(start, now)) {
      noPermitRate = noPermit.getAndSet(0) / (double) (now - start);
    }
  }

  /**
   * A waiter of the class handed a permit started running {@code nanos} after the hand-over.
   * Written without a lock: a step lost to a race is one sample of many.
   */
  void dispatched(long nanos) {
    double d = dispatchNanos;
    dispatchNanos = d < 0 ? nanos : d + (nanos - d) * DISPATCH_WEIGHT;
  }

  /** Whether a request that finds no permit now should be refused rather than suspended. */
  boolean waitingCostsMore() {
    double d = dispatchNanos;
    return d > 0 && noPermitRate * d > 1.0;
  }
}
