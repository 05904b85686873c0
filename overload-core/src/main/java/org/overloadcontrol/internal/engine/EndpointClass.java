package org.overloadcontrol.internal.engine;

import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
import org.overloadcontrol.internal.admission.StripedCounts;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.degrade.QualityController;
import org.overloadcontrol.internal.measure.P90Estimator;
import org.overloadcontrol.limiter.Limiter;

/**
 * One request class at one endpoint: its admission controller and the counters of what
 * happened to its requests. The unit at which metrics are reported.
 */
public final class EndpointClass {

  private final ControlledEndpoint endpoint;
  private final ClassController controller;

  /** The class's response-time measurement (its rate controller's windows, closed by rounds). */
  final P90Estimator p90;

  // The endpoint's parts that every request of the class reads, copied here: a request then
  // reads this object and not the endpoint's too. In a server the lines a request touches are
  // mostly cold (docs/performance.md), so each object on the path costs a miss.
  final EndpointAdmissionController admission;
  final QualityController quality;

  /** The class's admission algorithm at this endpoint. */
  final Limiter limiter;

  /**
   * The execution permit its requests hold while they run, shared by them: the limiter itself
   * when it takes one (a concurrency limit), else the endpoint's wait-queue permit taken after
   * admission; null when the endpoint has neither.
   */
  final ExecutionPermit execution;

  /**
   * Whether a completion's response time is read even when it is not sampled: the limiter or
   * the quality controller needs every one.
   */
  final boolean timesEveryResponse;

  private static final int ARRIVALS = 0;
  private static final int ENQUEUED = 1;
  private static final int ABANDONED = 2;
  private static final int WAIT_NANOS = 3;

  /** Requests the rate controller refused whose outcome is not reported yet. */
  private static final int REFUSALS_OPEN = 4;

  /** Outcome {@code o} is counted at {@code OUTCOMES + o.ordinal()}. */
  private static final int OUTCOMES = 5;

  /**
   * All counters of a stripe in one padded line: a request bumps two (arrival, outcome), which
   * as two {@code LongAdder}s were two lines. The profile could not resolve the difference
   * (docs/performance.md); it is kept because it touches one line less.
   */
  private final StripedCounts counts = new StripedCounts(OUTCOMES + Outcome.values().length);

  EndpointClass(ControlledEndpoint endpoint, ClassController controller) {
    this.endpoint = endpoint;
    this.controller = controller;
    this.p90 = controller.p90();
    this.admission = endpoint.admission();
    this.quality = endpoint.qualityController();
    this.limiter = endpoint.limiterFor(this);
    this.execution = endpoint.executionFor(limiter);
    this.timesEveryResponse = quality != null || limiter.needsEveryResponseTime();
    controller.countInFlight(this::inFlight);
  }

  /**
   * Requests of this class at this endpoint that arrived and have no outcome yet, less those the
   * rate controller refused: admitted and running or waiting in a queue, and the few arrivals
   * whose admission is being decided ({@link ClassController#countInFlight} leaves out the one
   * a round runs for). A refused request is not in flight while its 503 is written: counted,
   * the refusals of a class at {@code rateMin} held its whole resource group as queued. Sums
   * every stripe: for a round, not for a request.
   */
  public long inFlight() {
    long n = counts.sum(ARRIVALS) - counts.sum(REFUSALS_OPEN);
    for (Outcome o : Outcome.values()) {
      n -= counts.sum(OUTCOMES + o.ordinal());
    }
    return Math.max(0L, n);
  }

  public ControlledEndpoint endpoint() {
    return endpoint;
  }

  public ClassDefinition requestClass() {
    return controller.requestClass();
  }

  public ClassController controller() {
    return controller;
  }

  /**
   * The class's response-time measurement at this endpoint: its p90 estimate and sampling,
   * kept whichever algorithm admits the class.
   */
  public P90Estimator p90() {
    return p90;
  }

  /** The class's share of its endpoint's concurrency group, or null when it has none. */
  public ConcurrencyGroup.Partition concurrency() {
    return execution == null ? null : execution.partition;
  }

  /** Requests of this class that arrived at this endpoint. */
  public long arrivalCount() {
    return counts.sum(ARRIVALS);
  }

  /** Requests of this class at this endpoint that ended in {@code outcome}. */
  public long outcomeCount(Outcome outcome) {
    return counts.sum(OUTCOMES + outcome.ordinal());
  }

  /** Requests of this class at this endpoint that had to wait in a queue. */
  public long enqueuedCount() {
    return counts.sum(ENQUEUED);
  }

  /** Waiting requests whose client left (or whose container gave up) before they were served. */
  public long abandonedCount() {
    return counts.sum(ABANDONED);
  }

  /** Total time this class's requests spent waiting in queues, nanoseconds. */
  public long totalWaitNanos() {
    return counts.sum(WAIT_NANOS);
  }

  void countEnqueued() {
    counts.increment(ENQUEUED);
  }

  void countAbandoned() {
    counts.increment(ABANDONED);
  }

  void addWait(long nanos) {
    counts.add(WAIT_NANOS, nanos);
  }

  /** Counts an arrival; returns the arrivals counted in {@code stripe} before it. */
  long countArrival(int stripe) {
    return counts.add(stripe, ARRIVALS, 1L);
  }

  /** Counts a refusal by the rate controller, until {@link #countRejectionAnswered}. */
  void countRejection(int stripe) {
    counts.add(stripe, REFUSALS_OPEN, 1L);
  }

  /** The outcome of a request the rate controller refused is being reported. */
  void countRejectionAnswered(int stripe) {
    counts.add(stripe, REFUSALS_OPEN, -1L);
  }

  void countOutcome(int stripe, Outcome outcome) {
    counts.add(stripe, OUTCOMES + outcome.ordinal(), 1L);
  }
}
