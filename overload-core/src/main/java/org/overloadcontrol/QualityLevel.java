package org.overloadcontrol;

/**
 * The quality of a request as three steps, for application code that has a few discrete ways
 * to answer rather than a continuous knob (Welsh &amp; Culler 2003, §3.4: "lower-fidelity
 * content"). Derived from the quality number q and the endpoint's minimum quality q_min:
 *
 * <ul>
 *   <li>{@link #FULL}: q = 1, the endpoint is not degraded;
 *   <li>{@link #MINIMAL}: q = q_min, degraded as far as it is configured to go (with admission
 *       control combined, this is also when requests start to be rejected);
 *   <li>{@link #REDUCED}: anything between.
 * </ul>
 *
 * An endpoint that is not degradable is always {@link #FULL}.
 */
public enum QualityLevel {
  /** Serve the full answer. */
  FULL,
  /** Serve a cheaper answer: fewer results, smaller images, no recommendations. */
  REDUCED,
  /** Serve the cheapest answer the endpoint has. */
  MINIMAL;

  /** Tolerance for comparing qualities that arithmetic steps brought to a bound. */
  private static final double EPSILON = 1e-9;

  /**
   * The level of quality {@code quality} at an endpoint whose minimum is {@code minQuality}.
   * A quality of 1 is {@link #FULL} even when the minimum is 1 too.
   */
  public static QualityLevel of(double quality, double minQuality) {
    if (quality >= 1.0 - EPSILON) {
      return FULL;
    }
    return quality <= minQuality + EPSILON ? MINIMAL : REDUCED;
  }
}
