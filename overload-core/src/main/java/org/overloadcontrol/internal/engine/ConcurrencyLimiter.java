package org.overloadcontrol.internal.engine;

import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
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
 * limit learns from the sampled executions of the requests that held it ({@link
 * #recordSample}, {@link #recordCpu}), and the group's window rounds move it.
 *
 * <p>The class's token bucket still takes each arrival, where its rounds only measure and it
 * admits everything (Welsh &amp; Culler 2003's p90 windows, which every endpoint keeps): the
 * limit is the admission. A class without a target has no share: its requests take the
 * endpoint's permit alone.
 */
final class ConcurrencyLimiter extends ExecutionPermit implements Limiter {

  private final EndpointAdmissionController admission;
  private final ClassController controller;
  private final EndpointClass route;
  private final Ticker ticker;

  /** Whether a request that finds no permit is refused when the waiting room is full. */
  private final boolean refusedWhenFull;

  ConcurrencyLimiter(
      EndpointClass route,
      Ticker ticker,
      WaitQueues queues,
      EndpointPermits permits,
      ConcurrencyGroup.Partition partition) {
    super(queues, permits, partition);
    this.route = route;
    this.admission = route.admission;
    this.controller = route.controller();
    this.ticker = ticker;
    this.refusedWhenFull = partition != null && route.requestClass().kind() == RequestKind.BROWSING;
  }

  @Override
  public Permit acquire(long nowNanos, int stripe) {
    if (!TokenBucketLimiter.takeToken(admission, controller, route, ticker, nowNanos, stripe)) {
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
    return RejectionReason.ADMISSION_RATE;
  }

  @Override
  public long retryAfterNanos(long nowNanos) {
    return controller.nanosUntilToken(nowNanos);
  }

  @Override
  public boolean needsEveryResponseTime() {
    // The bucket's rounds and the limit's windows read the sampled response times only.
    return false;
  }

  @Override
  boolean readsCpu() {
    return partition != null;
  }

  /** Feeds the limit's window; wakes the waiters when its round raised the limit. */
  @Override
  void recordSample(long executionNanos, long responseNanos, long now, int stripe) {
    if (partition != null && partition.record(executionNanos, responseNanos, now, stripe)) {
      queues.wake();
    }
  }

  @Override
  void recordCpu(long cpuNanos, long wallNanos) {
    partition.recordCpu(cpuNanos, wallNanos);
  }
}
