package org.overloadcontrol.internal.bandwidth;

/**
 * What b̂_i, a group's measured bandwidth, averages (Li &amp; Jamin equations 1 and 2).
 */
enum Measure {
  /**
   * The group's delivered bandwidth: the bytes its responses completed in each manager period
   * over the period's length, averaged with weight α each period. Equation 1 applied to the
   * group as a whole (bytes over the time they took), which is what a share of B means when a
   * group has several requests in flight. The default.
   */
  THROUGHPUT,
  /**
   * Equation 1 per response, bytes over that response's time (delay included), averaged with
   * weight α per completion: the paper's measurement, exact for a group that sends one request
   * at a time, but by Little's law it under-counts a group with n requests in flight n-fold.
   */
  PER_REQUEST
}
