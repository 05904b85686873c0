package org.overloadcontrol.internal.queue;

import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.StripedCounts;

/**
 * The execution permits of one endpoint: how many of its requests run at once, against a limit
 * that the SEDA thread-pool analogue ({@link AdaptivePermitController}) may move. Unlimited by
 * default, when only the overall permits bound execution.
 *
 * <p>Concurrency: {@link #tryAcquire} is a CAS loop on the in-use count, so the limit is never
 * exceeded; a limit lowered below the count takes effect as permits come back. An endpoint
 * without a limit of its own (fixed, not adaptive) only counts, striped per thread
 * ({@link StripedCounts}, one locked add per acquire and per release): every
 * request of the endpoint would otherwise CAS one shared word twice, for a number that only
 * metrics and the queue threshold read (measured: two contended atomics per request were a
 * visible part of the filter's cost on a trivial servlet, see docs/performance.md).
 */
public final class EndpointPermits {

  private final String endpoint;
  private final AtomicInteger inUse = new AtomicInteger();

  /** The in-use count of an endpoint without a limit (null when {@link #inUse} counts). */
  private final StripedCounts unlimitedInUse;

  private final AtomicInteger waiting = new AtomicInteger();
  private volatile int limit;

  /** Ticker time since which at least one permit has been free, or −1 while all are busy. */
  volatile long freeSinceNanos = -1;

  /**
   * @param adaptive whether a controller moves the limit (then the count is exact and CAS'd
   *     even while the limit is unbounded)
   */
  EndpointPermits(String endpoint, int limit, boolean adaptive) {
    this.endpoint = endpoint;
    this.limit = limit;
    this.unlimitedInUse = limit == Integer.MAX_VALUE && !adaptive ? new StripedCounts(1) : null;
  }

  public String endpoint() {
    return endpoint;
  }

  public int inUse() {
    // The striped sum is not a snapshot: a release counted before its acquire could make it
    // dip below zero for a moment.
    return unlimitedInUse != null ? (int) Math.max(0L, unlimitedInUse.sum(0)) : inUse.get();
  }

  public int limit() {
    return limit;
  }

  /** Requests of this endpoint waiting in any queue. */
  public int waiting() {
    return waiting.get();
  }

  void setLimit(int newLimit) {
    if (unlimitedInUse != null) {
      throw new IllegalStateException("endpoint " + endpoint + " was created without a limit");
    }
    this.limit = newLimit;
  }

  boolean hasRoom() {
    return unlimitedInUse != null || inUse.get() < limit;
  }

  /** {@link #hasRoom()}, and room in the class's share of its concurrency group if it has one. */
  boolean hasRoom(ConcurrencyGroup.Partition partition) {
    return hasRoom() && (partition == null || partition.hasRoom());
  }

  boolean tryAcquire() {
    return tryAcquire(StripedCounts.currentStripe());
  }

  /**
   * Takes a permit of the class's concurrency group (when {@code partition} is not null) and
   * one of this endpoint; both or neither.
   */
  boolean tryAcquire(int stripe, ConcurrencyGroup.Partition partition) {
    if (partition == null) {
      return tryAcquire(stripe);
    }
    if (!partition.tryAcquire(stripe)) {
      return false;
    }
    if (!tryAcquire(stripe)) {
      partition.release(stripe);
      return false;
    }
    return true;
  }

  void release(int stripe, ConcurrencyGroup.Partition partition) {
    release(stripe);
    if (partition != null) {
      partition.release(stripe);
    }
  }

  boolean tryAcquire(int stripe) {
    if (unlimitedInUse != null) {
      unlimitedInUse.add(stripe, 0, 1L);
      return true;
    }
    for (; ; ) {
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

  void release(int stripe) {
    if (unlimitedInUse != null) {
      unlimitedInUse.add(stripe, 0, -1L);
    } else {
      inUse.decrementAndGet();
    }
  }

  void waiterAdded() {
    waiting.incrementAndGet();
  }

  void waiterRemoved() {
    waiting.decrementAndGet();
  }
}
