package org.overloadcontrol.internal.queue;

import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;

/**
 * A request waiting in a class queue for an execution permit, suspended by its adapter and
 * holding no container thread.
 *
 * <p>Ownership: the waiter leaves its queue exactly once, by being resumed (it got a permit),
 * expired (its deadline passed), or cancelled (the client left, the container timed it out, or
 * the filter stopped). Whoever takes it out of the queue, under the queues' lock, owns its
 * outcome; {@link #state} records which, so a late timer or listener sees it is too late.
 */
public final class Waiter {

  /** What the adapter does when the waiter leaves the queue. */
  public interface Listener {
    /** A permit is held for the request: run it (e.g. {@code AsyncContext.dispatch()}). */
    void resumed(Waiter waiter);

    /** The request waited past its deadline, or the queues shut down: answer 503. */
    void expired(Waiter waiter);
  }

  static final int WAITING = 0;
  static final int RESUMED = 1;
  static final int EXPIRED = 2;
  static final int CANCELLED = 3;

  private final ConcurrencyGroup.Partition partition;
  private final Listener listener;
  private final EndpointPermits endpoint;
  final ClassQueue queue;
  final long enqueuedNanos;
  final long deadlineNanos;
  final AtomicInteger state = new AtomicInteger(WAITING);
  volatile Scheduler.Cancellable expiryTimer;

  /** A request of an admitted session: it goes before new sessions' (session-aware admission). */
  final boolean sessionPrecedence;

  Waiter(
      ConcurrencyGroup.Partition partition,
      Listener listener,
      EndpointPermits endpoint,
      ClassQueue queue,
      long enqueuedNanos,
      long deadlineNanos,
      boolean sessionPrecedence) {
    this.sessionPrecedence = sessionPrecedence;
    this.partition = partition;
    this.listener = listener;
    this.endpoint = endpoint;
    this.queue = queue;
    this.enqueuedNanos = enqueuedNanos;
    this.deadlineNanos = deadlineNanos;
  }

  EndpointPermits endpoint() {
    return endpoint;
  }

  /** The class's share of its concurrency group, or null when it has none. */
  ConcurrencyGroup.Partition partition() {
    return partition;
  }

  Listener listener() {
    return listener;
  }

  /** When the waiter joined its queue, on the engine's ticker. */
  public long enqueuedNanos() {
    return enqueuedNanos;
  }

  /** When it expires if not resumed. */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /** Whether it is still in its queue. */
  public boolean waiting() {
    return state.get() == WAITING;
  }

  void cancelTimer() {
    Scheduler.Cancellable t = expiryTimer;
    if (t != null) {
      t.cancel();
    }
  }
}
