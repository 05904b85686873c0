package org.overloadcontrol.internal.engine;

import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.base.SessionRole;
import org.overloadcontrol.internal.queue.EndpointPermits;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.limiter.Permit;

/**
 * The execution permit a request of one route holds while it runs: its endpoint's permit of the
 * wait queues ({@code queue.*}) and, under a concurrency limit, its class's share of its group
 * ({@link ConcurrencyLimiter}). Taken at arrival, or handed over by a release to a request that
 * waits for it in the LIFO-Pri queues; returned once, at the request's outcome. Shared by the
 * requests it serves (a concurrency limiter's by its route's, this plain one by its endpoint's):
 * the request keeps it in its tag, and the calls carry the rest.
 *
 * <p>A limiter that takes the permit itself ({@link ConcurrencyLimiter}) is one: its {@link
 * org.overloadcontrol.limiter.Limiter#acquire} answers with itself when the request holds it,
 * {@link #WAIT} when the request may wait for it, null when it refuses. Behind any other limiter
 * the engine takes this permit after admission. It implements {@link Permit} only to be such an
 * answer: the engine returns it with {@link #release}, and never reports to it through its
 * {@link Permit} methods.
 */
class ExecutionPermit implements Permit {

  /**
   * The answer of a limiter that takes the execution permit itself when none is free now: the
   * request may wait for one in the queues ({@link #mayWait} says whether it does).
   */
  static final Permit WAIT = new Unreported();

  final WaitQueues queues;
  final EndpointPermits permits;

  /** The class's share of its concurrency group, or null (no limit, or no target). */
  final ConcurrencyGroup.Partition partition;

  ExecutionPermit(WaitQueues queues, EndpointPermits permits) {
    this(queues, permits, null);
  }

  ExecutionPermit(
      WaitQueues queues, EndpointPermits permits, ConcurrencyGroup.Partition partition) {
    this.queues = queues;
    this.permits = permits;
    this.partition = partition;
  }

  /** Takes the permit if it is free and nobody waits for one, counted in {@code stripe}. */
  final boolean tryAcquire(int stripe) {
    return queues.tryAcquire(permits, partition, stripe);
  }

  /**
   * Returns the permit a request held, and hands it to the next waiter if any. The caller reads
   * the request's completion first ({@link OverloadEngine#endSettle(RequestTag, Outcome,
   * long)}): the hand-over, and the waiter's dispatch the container may run on this thread, are
   * not the request's execution.
   */
  final void release(int stripe) {
    queues.release(permits, partition, stripe);
  }

  /**
   * Whether a request that found no permit waits for one ({@link OverloadEngine#enqueue}); else
   * it is refused, {@code queue-full}, before it is suspended. True here: the queues' own
   * capacity bounds the wait.
   */
  boolean mayWait(SessionRole session) {
    return true;
  }

  /** Queues a request of {@code requestClass} for this permit: see {@link WaitQueues#enqueue}. */
  final Waiter enqueue(
      ClassDefinition requestClass, long sessionMaxWaitNanos, Waiter.Listener listener) {
    return queues.enqueue(requestClass, partition, permits, sessionMaxWaitNanos, listener);
  }

  /**
   * A sampled request that holds this permit starts executing on the current thread ({@link
   * OverloadEngine#running}); it sets {@link RequestTag#cpuStarted} when {@link
   * #executionEnded} is to hear of its completion.
   */
  void executionStarted(RequestTag tag) {}

  /**
   * The sampled request whose execution {@link #executionStarted} saw start completed, on the
   * current thread, {@code responseNanos} after its arrival.
   */
  void executionEnded(RequestTag tag, long responseNanos) {}

  /**
   * A sampled request that held this permit completed: {@code executionNanos} from its start on
   * a thread to the completion, {@code responseNanos} from the arrival, and {@code handOverNanos}
   * from the permit given to it after a wait to its start (0 if it did not wait).
   */
  void recordSample(
      long executionNanos, long responseNanos, long handOverNanos, long now, int stripe) {}

  @Override
  public final void onSuccess(long responseNanos) {}

  @Override
  public final void onDropped() {}

  @Override
  public final void onIgnore() {}
}
