package org.overloadcontrol.internal.admission;

/**
 * How much of a group's execution time comes from requests queueing behind each other, from
 * its recent windows: the least-squares line of the windows' median execution against the
 * level they ran at (their in-flight count by Little's law). Under pure queueing the median
 * grows in proportion to the level and the whole of it is queueing; where the executions are
 * long for a reason no limit changes (the cores taken by refusing a retry storm, a JVM still
 * compiling, a call that waits on a remote service) the line is flat and none of it is. Round
 * state of one {@link ConcurrencyGroup}, used by its round thread only.
 *
 * <p>The same question as the gradients of Netflix concurrency-limits' Vegas and Gradient2
 * (latency now against the lowest seen), asked of windows at different levels rather than of
 * one window against a minimum, so that a slow phase at every level does not read as queueing.
 */
final class LevelHistory {

  /** Windows the line is fitted over. */
  static final int WINDOWS = 32;

  /** The fewest windows that fit a line. */
  static final int FEWEST = 8;

  /** The spread of levels (largest over smallest) under which the line says nothing. */
  static final double LEAST_SPREAD = 1.5;

  private final double[] levels = new double[WINDOWS];
  private final double[] medians = new double[WINDOWS];
  private int count;
  private int next;

  /** Adds one judged window: its level and its median execution over target. */
  void add(double level, double median) {
    if (!(level > 0) || !(median > 0)) {
      return;
    }
    levels[next] = level;
    medians[next] = median;
    next = (next + 1) % WINDOWS;
    count = Math.min(WINDOWS, count + 1);
  }

  /**
   * The share of the median execution at {@code level} that the fitted line puts down to
   * queueing (0 for a flat line, 1 for one through the origin), NaN while the windows are too
   * few or their levels too alike to tell.
   */
  double queueingShare(double level) {
    if (count < FEWEST) {
      return Double.NaN;
    }
    double lowest = Double.POSITIVE_INFINITY;
    double highest = 0;
    double sumLevel = 0;
    double sumMedian = 0;
    for (int i = 0; i < count; i++) {
      lowest = Math.min(lowest, levels[i]);
      highest = Math.max(highest, levels[i]);
      sumLevel += levels[i];
      sumMedian += medians[i];
    }
    if (highest < LEAST_SPREAD * lowest) {
      return Double.NaN;
    }
    double meanLevel = sumLevel / count;
    double meanMedian = sumMedian / count;
    double covariance = 0;
    double variance = 0;
    for (int i = 0; i < count; i++) {
      double dl = levels[i] - meanLevel;
      covariance += dl * (medians[i] - meanMedian);
      variance += dl * dl;
    }
    double slope = Math.max(0, covariance / variance);
    double atLevel = meanMedian + slope * (level - meanLevel);
    if (!(atLevel > 0)) {
      return 1.0;
    }
    return Math.min(1.0, slope * level / atLevel);
  }
}
