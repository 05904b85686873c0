package org.overloadcontrol.internal.metrics;

import java.util.List;
import java.util.OptionalInt;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.queue.EndpointPermits;

/**
 * One endpoint's load, read-only: its limit, the requests in flight under it, those waiting, its
 * concurrency group's state, and its counts since start. The status document, the metrics, the
 * log, the endpoint states and the Jetty handler's JMX view read this, not the admission's and
 * the queues' own objects, whose public methods also take and give back permits; and how a
 * mechanism keeps its numbers is known here alone. Each call reads the engine at that moment.
 */
public final class EndpointLoad {

  /** What {@link #limit} and {@link #permitsLimit} say when there is none. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  private final ControlledEndpoint endpoint;

  private EndpointLoad(ControlledEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** The load of {@code endpoint}. */
  public static EndpointLoad of(ControlledEndpoint endpoint) {
    return new EndpointLoad(endpoint);
  }

  /** The load of each endpoint of {@code engine}; none for a stopped (null) engine. */
  public static List<EndpointLoad> of(OverloadEngine engine) {
    return engine == null ? List.of() : engine.endpoints().stream().map(EndpointLoad::new).toList();
  }

  public String name() {
    return endpoint.name();
  }

  /** Whether the endpoint runs under the wait queues' execution permits ({@code queue.*}). */
  public boolean hasPermits() {
    return endpoint.permits() != null;
  }

  /** Permits of the endpoint in use now; 0 without permits. */
  public int permitsInUse() {
    EndpointPermits p = endpoint.permits();
    return p == null ? 0 : p.inUse();
  }

  /** The endpoint's own permit limit, {@link #UNLIMITED} when only the shared permits bound it. */
  public int permitsLimit() {
    EndpointPermits p = endpoint.permits();
    return p == null ? UNLIMITED : p.limit();
  }

  /** Requests of the endpoint waiting in a queue now. */
  public int waiting() {
    EndpointPermits p = endpoint.permits();
    return p == null ? 0 : p.waiting();
  }

  /** Whether a concurrency group admits the endpoint's requests ({@code admission.*}). */
  public boolean hasGroup() {
    return endpoint.concurrencyGroup() != null;
  }

  /** The concurrency group's name, or null without one. */
  public String groupName() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g == null ? null : g.name();
  }

  /** The concurrency group's limit now, {@link #UNLIMITED} without one. */
  public int groupLimit() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g == null ? UNLIMITED : g.limit();
  }

  /** The concurrency group's requests in flight now (of all its endpoints); 0 without one. */
  public int groupInFlight() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g == null ? 0 : g.inFlight();
  }

  /** The group's last window's p90 over the target, NaN without one. */
  public double groupP90OfTarget() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g == null ? Double.NaN : g.lastP90OfTarget();
  }

  /** The group's setpoint scale, NaN without one. */
  public double groupSetpointScale() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g == null ? Double.NaN : g.scale();
  }

  /** Whether the group is at its limit now: a request more would wait or be refused. */
  public boolean groupFull() {
    ConcurrencyGroup g = endpoint.concurrencyGroup();
    return g != null && g.inFlight() >= g.limit();
  }

  /** Requests running now: the group's in flight, else the endpoint's permits in use. */
  public int inFlight() {
    return hasGroup() ? groupInFlight() : permitsInUse();
  }

  /**
   * The endpoint's own limit: its group's, else its share of the permits; {@link #UNLIMITED}
   * when it has neither.
   */
  public int limit() {
    return hasGroup() ? groupLimit() : permitsLimit();
  }

  /** Requests that arrived since start, over its classes. */
  public long arrivals() {
    long sum = 0;
    for (EndpointClass c : endpoint.classes()) {
      sum += c.arrivalCount();
    }
    return sum;
  }

  /** The endpoint's load now, copied for the published API. */
  public EndpointSnapshot snapshot() {
    int l = limit();
    return new EndpointSnapshot(
        name(),
        l == UNLIMITED ? OptionalInt.empty() : OptionalInt.of(l),
        inFlight(),
        waiting(),
        arrivals(),
        outcomes(Outcome.COMPLETED),
        outcomes(Outcome.REJECTED),
        outcomes(Outcome.EXPIRED));
  }

  /** Requests that ended in {@code outcome} since start, over its classes. */
  public long outcomes(Outcome outcome) {
    long sum = 0;
    for (EndpointClass c : endpoint.classes()) {
      sum += c.outcomeCount(outcome);
    }
    return sum;
  }
}
