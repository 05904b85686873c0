package org.overloadcontrol.internal.metrics;

import org.overloadcontrol.internal.engine.ControlledEndpoint;

/**
 * An endpoint's state changed (see {@link OverloadWatch} for how it is judged).
 *
 * @param endpoint the endpoint
 * @param from its state before
 * @param reading its state now and the counts it was judged on
 */
public record StateChange(ControlledEndpoint endpoint, EndpointState from, StateReading reading) {

  /** The state now. */
  public EndpointState to() {
    return reading.state();
  }

  /** Observes state changes; called on the adapter's scheduler thread. */
  @FunctionalInterface
  public interface Listener {
    Listener NONE = change -> {};

    void onStateChange(StateChange change);
  }
}
