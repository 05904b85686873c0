package org.overloadcontrol.metrics;

import org.overloadcontrol.engine.ControlledEndpoint;

/**
 * An endpoint entered or left overload (see {@link OverloadWatch} for the definition).
 *
 * @param endpoint the endpoint
 * @param entered true when it entered overload, false when it left
 * @param shedCount requests it shed (rejected or expired) in the period that made it enter;
 *     when leaving, all it shed while overloaded
 * @param arrivalCount requests that arrived in that period; when leaving, while overloaded
 * @param periodNanos the period the counts cover: one watch period when entering, the whole
 *     episode when leaving
 * @param quietNanos when leaving, how long it had not shed while missing its target; 0 when
 *     entering
 */
public record OverloadEvent(
    ControlledEndpoint endpoint,
    boolean entered,
    long shedCount,
    long arrivalCount,
    long periodNanos,
    long quietNanos) {

  /** Observes overload episodes; called on the filter's scheduler thread. */
  @FunctionalInterface
  public interface Listener {
    Listener NONE = event -> {};

    void onOverloadChange(OverloadEvent event);
  }
}
