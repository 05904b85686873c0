package org.overloadcontrol.internal.degrade;

/**
 * The admission control of one endpoint as the quality controller sees it: a switch, plus
 * whether it is what holds the load down. The engine implements it over the endpoint's
 * {@code EndpointAdmissionController}; tests use a fake.
 */
public interface AdmissionSwitch {

  /** Whether admission control currently applies at the endpoint. */
  boolean enabled();

  /**
   * Turns admission control on, its buckets restarted at {@code throughputPerSecond} (the rate
   * the endpoint just completed requests at its minimum quality) so that it starts from what the
   * endpoint can do rather than from wherever its rounds drifted while it was off.
   */
  void enable(double throughputPerSecond, long nowNanos);

  /**
   * Raises the buckets to {@code throughputPerSecond} where that is more than their rate (never
   * lowers them): called while the endpoint, at minimum quality with admission on, still misses
   * its target, so its queue keeps it busy and what it completes is what it can do. Returns
   * whether some rate rose.
   */
  default boolean raise(double throughputPerSecond, long nowNanos) {
    return false;
  }

  /** Turns admission control off: every request is admitted. */
  void disable();

  /**
   * Whether, over the last {@code periodNanos}, some class arrived faster than its bucket rate
   * allows, i.e. whether admission control (if on) is what keeps the load down. Called once per
   * control period, on or off; an implementation measures from the previous call.
   */
  boolean limiting(long periodNanos);

  /** For endpoints that have no admission control to switch. */
  AdmissionSwitch NONE =
      new AdmissionSwitch() {
        @Override
        public boolean enabled() {
          return false;
        }

        @Override
        public void enable(double throughputPerSecond, long nowNanos) {}

        @Override
        public void disable() {}

        @Override
        public boolean limiting(long periodNanos) {
          return false;
        }
      };
}
