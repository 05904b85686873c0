package org.overloadcontrol.internal.engine;

import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.SessionRole;
import org.overloadcontrol.internal.queue.EndpointPermits;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.Permit;

/**
 * The concurrency limit ({@code admission.controller: concurrency}, the default) as a {@link
 * Limiter} of one request class at one endpoint: a request runs while its class's share of its
 * resource group's limit ({@link ConcurrencyGroup.Partition}) and its endpoint's execution
 * permit are free, and a request over the limit waits for a release to hand it one, in the
 * LIFO-Pri queues. So {@link #acquire} has three answers: this object (the route's shared
 * permit: the request holds both), {@link ExecutionPermit#WAIT} (it may wait; {@link #mayWait}
 * refuses a browsing request when the class's waiting room is full), or null (refused). The
 * limit learns from the sampled executions of the requests that held it, their times ({@link
 * #recordSample}) and their threads' CPU ({@link #executionStarted}), and the group's window
 * rounds move it.
 *
 * <p>The class's token bucket still takes each arrival, where its rounds only measure and it
 * admits everything (Welsh &amp; Culler 2003's p90 windows, which every endpoint keeps): the
 * limit is the admission. A class without a target has no share: its requests take the
 * endpoint's permit alone.
 */
final class ConcurrencyLimiter extends ExecutionPermit implements Limiter {

  /** The class's bucket, which takes each arrival and says why and how long a refusal is. */
  private final TokenBucketLimiter bucket;

  /** The CPU clocks that time the sampled executions on their threads. */
  private final CpuClock cpu;

  /** Whether a request that finds no permit is refused when the waiting room is full. */
  private final boolean refusedWhenFull;

  ConcurrencyLimiter(
      EndpointClass route,
      Ticker ticker,
      CpuClock cpu,
      WaitQueues queues,
      EndpointPermits permits,
      ConcurrencyGroup.Partition partition) {
    super(queues, permits, partition);
    this.bucket = new TokenBucketLimiter(route, ticker);
    this.cpu = cpu;
    this.refusedWhenFull = partition != null && route.requestClass().kind() == RequestKind.BROWSING;
  }

  @Override
  public Permit acquire(long nowNanos, int stripe) {
    if (!bucket.takeToken(nowNanos, stripe)) {
      return null;
    }
    if (tryAcquire(stripe)) {
      return this;
    }
    if (partition != null) {
      partition.markWaited();
    }
    return WAIT;
  }

  /**
   * Refused before it is suspended: a wait that would end in a refusal costs the cores the
   * waiters wait for. Transactions and admitted sessions' requests wait whatever the count:
   * refusing them loses work already done.
   */
  @Override
  boolean mayWait(SessionRole session) {
    return !refusedWhenFull || session == SessionRole.ADMITTED || partition.roomToWait();
  }

  @Override
  public RejectionReason rejectionReason() {
    return bucket.rejectionReason();
  }

  @Override
  public long retryAfterNanos(long nowNanos) {
    return bucket.retryAfterNanos(nowNanos);
  }

  @Override
  public boolean needsEveryResponseTime() {
    // The limit's windows, like the bucket's rounds, read the sampled response times only.
    return bucket.needsEveryResponseTime();
  }

  /**
   * Reads the thread's CPU time at a sampled execution's start, so that its completion on the
   * same thread tells the limit how much of the cores the executions take ({@link
   * ConcurrencyGroup#cpuClock}).
   */
  @Override
  void executionStarted(RequestTag tag) {
    if (partition == null) {
      return;
    }
    long now = cpu.threadNanos();
    if (now >= 0) {
      ExecutionStart start = EXECUTION_START.get();
      start.tag = tag;
      start.cpuNanos = now;
      tag.cpuStarted = true;
    }
  }

  @Override
  void executionEnded(RequestTag tag, long responseNanos) {
    // Only a request whose start was read: a thread without a clock (a virtual thread on some
    // JDKs) never creates its slot, and the clock is read only for an execution that started
    // on this thread.
    ExecutionStart start = EXECUTION_START.get();
    if (start.tag == tag) {
      start.tag = null;
      long cpuNow = cpu.threadNanos();
      if (cpuNow >= 0) {
        partition.recordCpu(cpuNow - start.cpuNanos, responseNanos - tag.waitedNanos());
      }
    }
  }

  /** Feeds the limit's window; wakes the waiters when its round raised the limit. */
  @Override
  void recordSample(
      long executionNanos, long responseNanos, long handOverNanos, long now, int stripe) {
    if (partition != null
        && partition.record(executionNanos, responseNanos, handOverNanos, now, stripe)) {
      queues.wake();
    }
  }

  /**
   * Where the current thread's sampled execution started: its request and the thread's CPU time
   * then ({@link #executionStarted}), read at the request's completion on the same thread. A slot
   * per thread rather than a field of the tag: a field made every request's tag a word longer
   * (104 bytes a request instead of 96), for the few requests sampled.
   */
  private static final ThreadLocal<ExecutionStart> EXECUTION_START =
      ThreadLocal.withInitial(ExecutionStart::new);

  /** One thread's slot: see {@link #EXECUTION_START}. */
  private static final class ExecutionStart {
    RequestTag tag;
    long cpuNanos;
  }
}
