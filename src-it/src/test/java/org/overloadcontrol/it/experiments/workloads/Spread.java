package org.overloadcontrol.it.experiments.workloads;

import java.util.List;
import java.util.Locale;

/**
 * One figure of a matrix cell over its repeated runs: the median and the range, for reading a
 * change against the run-to-run spread of the same code instead of one run against one.
 *
 * @param median the middle run's value (the mean of the two middle ones for an even count)
 * @param lowest the smallest
 * @param highest the largest
 * @param runs the runs that had a value (NaN values, a figure a run could not measure, left out)
 */
record Spread(double median, double lowest, double highest, int runs) {

  /** The spread of {@code values}; NaN figures when none is a number. */
  static Spread of(List<Double> values) {
    double[] v =
        values.stream()
            .mapToDouble(Double::doubleValue)
            .filter(x -> !Double.isNaN(x))
            .sorted()
            .toArray();
    if (v.length == 0) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    int m = v.length / 2;
    double median = v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    return new Spread(median, v[0], v[v.length - 1], v.length);
  }

  /**
   * "median (lowest–highest)" in {@code pattern}, "–" when no run had a value; an infinite value
   * (a stall the run never recovered from) reads "never".
   */
  String format(String pattern) {
    if (runs == 0) {
      return "–";
    }
    String mid = number(median, pattern);
    if (runs == 1 || lowest == highest) {
      return mid;
    }
    return mid + " (" + number(lowest, pattern) + "–" + number(highest, pattern) + ")";
  }

  private static String number(double v, String pattern) {
    return Double.isInfinite(v) ? "never" : String.format(Locale.ROOT, pattern, v);
  }
}
