package org.overloadcontrol.internal.queue;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.StripedCounts;
import org.overloadcontrol.internal.base.ClassDefinition;

/**
 * The bounded queue of one request class (or the single shared queue), a deque so that it can
 * be served from either end. Guarded by the {@link WaitQueues} lock; {@link #size} is also
 * published for lock-free readers (metrics).
 */
final class ClassQueue {

  final ClassDefinition requestClass;
  final int capacity;
  final long maxWaitNanos;
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private volatile int size;

  /** Waiters of admitted sessions: none, and a take is one pass as before. */
  private int sessionWaiters;

  ClassQueue(ClassDefinition requestClass, int capacity, long maxWaitNanos) {
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

  /** Waiters of admitted sessions (under the lock). */
  int sessionWaiters() {
    return sessionWaiters;
  }

  boolean isEmpty() {
    return waiters.isEmpty();
  }

  void add(Waiter w) {
    waiters.addLast(w);
    counted(w, 1);
    size = waiters.size();
  }

  boolean remove(Waiter w) {
    boolean removed = waiters.remove(w);
    if (removed) {
      counted(w, -1);
    }
    size = waiters.size();
    return removed;
  }

  /**
   * The oldest (FIFO) or newest (LIFO) waiter whose endpoint has a free permit, removed; a
   * waiter of an admitted session before any other of this class (Cherkasova &amp; Phaal 2002:
   * an admitted session keeps precedence over new ones), the oldest first whatever the order:
   * the one closest to its deadline, whose expiry would be a refusal mid-session. The
   * precedence stays inside the class, so class priorities hold: a checkout step still goes
   * before another session's browsing.
   */
  Waiter takeEligible(boolean lifo) {
    if (sessionWaiters > 0) {
      Waiter w = take(false, true);
      if (w != null) {
        return w;
      }
    }
    return take(lifo, false);
  }

  private Waiter take(boolean lifo, boolean sessionsOnly) {
    Iterator<Waiter> it = lifo ? waiters.descendingIterator() : waiters.iterator();
    while (it.hasNext()) {
      Waiter w = it.next();
      if (sessionsOnly && !w.sessionPrecedence) {
        continue;
      }
      if (w.endpoint().tryAcquire(StripedCounts.currentStripe(), w.partition())) {
        it.remove();
        counted(w, -1);
        size = waiters.size();
        return w;
      }
    }
    return null;
  }

  /** The earliest deadline of this queue's waiters of admitted sessions (under the lock). */
  long earliestSessionDeadline() {
    long earliest = Long.MAX_VALUE;
    if (sessionWaiters > 0) {
      for (Waiter w : waiters) {
        if (w.sessionPrecedence) {
          earliest = Math.min(earliest, w.deadlineNanos);
        }
      }
    }
    return earliest;
  }

  private void counted(Waiter w, int delta) {
    if (w.sessionPrecedence) {
      sessionWaiters += delta;
    }
  }

  /**
   * Whether a waiter of an admitted session has waited, by {@code now}, more than half its own
   * bound or more than any other request of its class may wait (its target less the class's
   * median execution), whichever is shorter (under the lock). Past the latter its page will be
   * late: the admitted sessions do not fit now, so the door closes while it still waits (it
   * keeps its longer bound, since a refusal now would lose its session). Half its own bound
   * alone kept the door open until a shop checkout page, which executes in 0.75 of its target,
   * had waited 0.4 of it: already 1.15 × its target, where the page's p90 may be 1.1 ×.
   */
  boolean sessionOverdue(long now) {
    if (sessionWaiters == 0) {
      return false;
    }
    for (Waiter w : waiters) {
      if (w.sessionPrecedence && now - w.enqueuedNanos > overdueAfter(w)) {
        return true;
      }
    }
    return false;
  }

  private static long overdueAfter(Waiter w) {
    long half = (w.deadlineNanos - w.enqueuedNanos) / 2;
    ConcurrencyGroup.Partition p = w.partition();
    return p == null ? half : Math.min(half, p.waitBoundNanos(p.maxWaitNanos()));
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
    sessionWaiters = 0;
    size = 0;
    return all;
  }
}
