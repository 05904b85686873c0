package org.overloadcontrol.queue;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The execution permits of one endpoint: how many of its requests run at once, against a limit
 * that the SEDA thread-pool analogue ({@link AdaptivePermitController}) may move. Unlimited by
 * default, when only the overall permits bound execution.
 *
 * <p>Concurrency: {@link #tryAcquire} is a CAS loop on the in-use count, so the limit is never
 * exceeded; a limit lowered below the count takes effect as permits come back.
 */
public final class EndpointPermits {

  private final String endpoint;
  private final AtomicInteger inUse = new AtomicInteger();
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile int limit;
  /** Ticker time since which at least one permit has been free, or −1 while all are busy. */
  volatile long freeSinceNanos = -1;

  EndpointPermits(String endpoint, int limit) {
    this.endpoint = endpoint;
    this.limit = limit;
  }

  public String endpoint() {
    return endpoint;
  }

  public int inUse() {
    return inUse.get();
  }

  public int limit() {
    return limit;
  }

  /** Requests of this endpoint waiting in any queue. */
  public int waiting() {
    return waiting.get();
  }

  void setLimit(int newLimit) {
    this.limit = newLimit;
  }

  boolean hasRoom() {
    return inUse.get() < limit;
  }

  boolean tryAcquire() {
    for (;;) {
      int current = inUse.get();
      if (current >= limit) {
        return false;
      }
      // Two threads may both see room for one; the CAS lets one through.
      if (inUse.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  void release() {
    inUse.decrementAndGet();
  }

  void waiterAdded() {
    waiting.incrementAndGet();
  }

  void waiterRemoved() {
    waiting.decrementAndGet();
  }
}
