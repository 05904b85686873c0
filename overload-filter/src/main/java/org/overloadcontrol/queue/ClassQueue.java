package org.overloadcontrol.queue;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.overloadcontrol.admission.StripedCounts;
import org.overloadcontrol.base.RequestClass;
import org.overloadcontrol.base.RequestKind;

/**
 * The bounded queue of one request class (or the single shared queue), a deque so that it can
 * be served from either end. Guarded by the {@link WaitQueues} lock; {@link #size} is also
 * published for lock-free readers (metrics).
 */
final class ClassQueue {

  final RequestClass requestClass;
  final int capacity;
  final long maxWaitNanos;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private volatile int size;

  ClassQueue(RequestClass requestClass, int capacity, long maxWaitNanos) {
    this.requestClass = requestClass;
    this.capacity = capacity;
    this.maxWaitNanos = maxWaitNanos;
  }

  boolean transaction() {
    return requestClass.kind() == RequestKind.TRANSACTION;
  }

  boolean full() {
    return waiters.size() >= capacity;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return waiters.isEmpty();
  }

  void add(Waiter w) {
    waiters.addLast(w);
    size = waiters.size();
  }

  boolean remove(Waiter w) {
    boolean removed = waiters.remove(w);
    size = waiters.size();
    return removed;
  }

  /** The oldest (FIFO) or newest (LIFO) waiter whose endpoint has a free permit, removed. */
  Waiter takeEligible(boolean lifo) {
    Iterator<Waiter> it = lifo ? waiters.descendingIterator() : waiters.iterator();
    while (it.hasNext()) {
      Waiter w = it.next();
      if (w.endpoint().tryAcquire(StripedCounts.currentStripe(), w.partition())) {
        it.remove();
        size = waiters.size();
        return w;
      }
    }
    return null;
  }

  boolean hasEligible() {
    for (Waiter w : waiters) {
      if (w.endpoint().hasRoom(w.partition())) {
        return true;
      }
    }
    return false;
  }

  /** The oldest waiter's enqueue time, or Long.MAX_VALUE when empty. */
  long oldestEnqueuedNanos() {
    Waiter first = waiters.peekFirst();
    return first == null ? Long.MAX_VALUE : first.enqueuedNanos;
  }

  /** Removes and returns every waiter. */
  Waiter[] clear() {
    Waiter[] all = waiters.toArray(new Waiter[0]);
    waiters.clear();
    size = 0;
    return all;
  }
}
