package org.overloadcontrol.engine;

import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.admission.ClassController;

/**
 * One request class at one endpoint: its admission controller and the counters of what
 * happened to its requests. The unit at which metrics are reported.
 */
public final class EndpointClass {

  private final Endpoint endpoint;
  private final ClassController controller;
  private final LongAdder arrivals = new LongAdder();
  private final LongAdder[] outcomes = new LongAdder[Outcome.values().length];
  private final LongAdder enqueued = new LongAdder();
  private final LongAdder abandoned = new LongAdder();
  private final LongAdder waitNanos = new LongAdder();

  EndpointClass(Endpoint endpoint, ClassController controller) {
    this.endpoint = endpoint;
    this.controller = controller;
    for (int i = 0; i < outcomes.length; i++) {
      outcomes[i] = new LongAdder();
    }
  }

  public Endpoint endpoint() {
    return endpoint;
  }

  public RequestClass requestClass() {
    return controller.requestClass();
  }

  public ClassController controller() {
    return controller;
  }

  /** Requests of this class that arrived at this endpoint. */
  public long arrivalCount() {
    return arrivals.sum();
  }

  /** Requests of this class at this endpoint that ended in {@code outcome}. */
  public long outcomeCount(Outcome outcome) {
    return outcomes[outcome.ordinal()].sum();
  }

  /** Requests of this class at this endpoint that had to wait in a queue. */
  public long enqueuedCount() {
    return enqueued.sum();
  }

  /** Waiting requests whose client left (or whose container gave up) before they were served. */
  public long abandonedCount() {
    return abandoned.sum();
  }

  /** Total time this class's requests spent waiting in queues, nanoseconds. */
  public long totalWaitNanos() {
    return waitNanos.sum();
  }

  void countEnqueued() {
    enqueued.increment();
  }

  void countAbandoned() {
    abandoned.increment();
  }

  void addWait(long nanos) {
    waitNanos.add(nanos);
  }

  void countArrival() {
    arrivals.increment();
  }

  void countOutcome(Outcome outcome) {
    outcomes[outcome.ordinal()].increment();
  }
}
