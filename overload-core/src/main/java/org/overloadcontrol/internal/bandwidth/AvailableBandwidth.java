package org.overloadcontrol.internal.bandwidth;

/**
 * The admission arithmetic of Li &amp; Jamin, "A Measurement-Based Admission-Controlled Web
 * Server", §V.C, as pure functions (notation of their Table I; bandwidths in bytes per second):
 *
 * <pre>
 *   b_i  allocated bandwidth of group i (share × B)     b̂_i  its measured average (EWMA)
 *   B    the configured total                          Â    the maximum measured total
 *
 *   (4) unsatisfaction = ∃ j : b̂_j &lt; b_j ∧ active_j
 *   (5) unsatisfaction:    d_i = 2·b_i − b̂_i   if b̂_i &lt; b_i,   else b_i
 *   (6) utilized = Σ_j b̂_j
 *   (7) remaining = B − utilized
 *   (8) no unsatisfaction: d_i = B − (utilized − b̂_i)   if remaining &gt; 0,   else b_i
 *   (9) d_i = max(d_i, 0)
 *   (3) delay_i = (1/d_i − 1/Â) × size,   clamped at 0
 * </pre>
 *
 * <p>Two readings of the published text are choices. Equation 4 is printed as a product over
 * the groups, but the text defines unsatisfaction as "there exists any client" that is active
 * and below its allocation, which is what we compute. Equation 7 is printed with the total
 * "specified in the configuration file", which is B (the paper's symbol for it was lost in
 * print, leaving two Â in Table I); equation 8 uses B too. Â only enters the delay.
 */
final class AvailableBandwidth {

  private AvailableBandwidth() {}

  /**
   * Equation 4: whether some active group is measured below its allocation.
   *
   * @param averages b̂_j per group
   * @param allocations b_j per group
   * @param active active_j per group
   */
  public static boolean unsatisfaction(double[] averages, double[] allocations, boolean[] active) {
    for (int j = 0; j < averages.length; j++) {
      if (active[j] && averages[j] < allocations[j]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Equations 5 to 9: the bandwidth d_i available to group i.
   *
   * @param unsatisfaction equation 4
   * @param average b̂_i
   * @param allocation b_i
   * @param utilized equation 6, the sum of all b̂_j
   * @param totalBytesPerSecond B
   */
  public static double available(
      boolean unsatisfaction,
      double average,
      double allocation,
      double utilized,
      double totalBytesPerSecond) {
    double d;
    if (unsatisfaction) {
      // (5) A group below its share pushes harder; one at or above it is held to its share.
      d = average < allocation ? 2 * allocation - average : allocation;
    } else {
      double remaining = totalBytesPerSecond - utilized;
      // (8) Everyone is satisfied: a group may take what the others leave unused.
      d = remaining > 0 ? totalBytesPerSecond - (utilized - average) : allocation;
    }
    return Math.max(d, 0); // (9) guards against spikes in the averages
  }

  /**
   * Equation 3: how long to hold a response of {@code sizeBytes} so that it is perceived at
   * {@code available} bytes per second when the server itself would send it at
   * {@code maxMeasured}; 0 when the group may have more than the server's rate, and
   * {@link Long#MAX_VALUE} when nothing is available to it.
   */
  public static long delayNanos(double available, double maxMeasured, double sizeBytes) {
    if (sizeBytes <= 0) {
      return 0;
    }
    if (!(available > 0)) {
      return Long.MAX_VALUE;
    }
    double seconds = (1 / available - 1 / maxMeasured) * sizeBytes;
    if (!(seconds > 0)) {
      return 0;
    }
    double nanos = seconds * 1e9;
    return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
  }
}
