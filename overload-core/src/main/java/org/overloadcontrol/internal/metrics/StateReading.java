package org.overloadcontrol.internal.metrics;

/**
 * An endpoint's state and the counts it was judged on, as {@link OverloadWatch} last read them.
 *
 * @param state the state
 * @param refused requests refused or expired within the window
 * @param answered requests that got any outcome within the window (served, refused, expired,
 *     sent to the virtual queue, failed)
 * @param windowNanos the time the counts cover: the window, or less for an endpoint seen for
 *     the first time within it
 */
public record StateReading(EndpointState state, long refused, long answered, long windowNanos) {

  /** The reading of an endpoint not judged yet. */
  public static final StateReading NONE = new StateReading(EndpointState.HEALTHY, 0, 0, 0);

  /** The share of the window's answers that were refusals, 0 to 1; 0 when nothing was answered. */
  public double refusedShare() {
    return answered > 0 ? Math.min(1.0, (double) refused / answered) : 0.0;
  }
}
