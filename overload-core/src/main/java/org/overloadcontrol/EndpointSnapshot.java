package org.overloadcontrol;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One endpoint's load at one moment, copied from a running filter or handler: for code and
 * management views (the Jetty handler's JMX view) that want the numbers without a metrics
 * library. Nothing in it reaches back into the engine; read again for newer numbers. The counts
 * are those of the configuration in force: an applied reload starts them again from zero, as a
 * restart does.
 *
 * @param name the endpoint
 * @param limit the requests the endpoint may run at once now: its concurrency group's limit,
 *     else its own share of the execution permits; empty when neither bounds it (the shared
 *     {@code queue.permits} may still do)
 * @param inFlight the requests running now under that limit (for a concurrency group, those of
 *     all its endpoints)
 * @param waiting the endpoint's requests waiting in a queue now
 * @param arrivals the requests that arrived, over its classes
 * @param completed the requests that ran and completed
 * @param refused the requests refused by admission control or a full wait queue
 * @param expired the requests whose wait in a queue ended at its deadline
 */
public record EndpointSnapshot(
    String name,
    OptionalInt limit,
    int inFlight,
    int waiting,
    long arrivals,
    long completed,
    long refused,
    long expired) {

  public EndpointSnapshot {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(limit, "limit");
  }
}
