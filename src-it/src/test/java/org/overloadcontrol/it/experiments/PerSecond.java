package org.overloadcontrol.it.experiments;

import java.util.ArrayList;
import java.util.List;

/**
 * A time series in one-second buckets from a common start: per bucket the count, sum and
 * largest of the values added, thread-safely (the experiments add a few hundred values a
 * second, so one lock is plenty). Values after {@code maxSeconds} are dropped.
 */
final class PerSecond {

  private final long startNanos;
  private final long[] counts;
  private final double[] sums;
  private final double[] maxima;
  private int last = -1;

  PerSecond(long startNanos, int maxSeconds) {
    this.startNanos = startNanos;
    this.counts = new long[maxSeconds];
    this.sums = new double[maxSeconds];
    this.maxima = new double[maxSeconds];
  }

  /** The bucket of {@code nowNanos}: whole seconds since the start. */
  int second(long nowNanos) {
    return (int) Math.floorDiv(nowNanos - startNanos, 1_000_000_000L);
  }

  /** Adds {@code value} to the bucket of {@code nowNanos}. */
  synchronized void add(long nowNanos, double value) {
    int s = second(nowNanos);
    if (s < 0 || s >= counts.length) {
      return;
    }
    counts[s]++;
    sums[s] += value;
    maxima[s] = counts[s] == 1 ? value : Math.max(maxima[s], value);
    last = Math.max(last, s);
  }

  /** The number of buckets up to the last one that got a value. */
  synchronized int length() {
    return last + 1;
  }

  synchronized long count(int second) {
    return counts[second];
  }

  synchronized double sum(int second) {
    return sums[second];
  }

  /** The mean of the bucket's values, NaN when it has none. */
  synchronized double mean(int second) {
    return counts[second] == 0 ? Double.NaN : sums[second] / counts[second];
  }

  /** The largest of the bucket's values, NaN when it has none. */
  synchronized double max(int second) {
    return counts[second] == 0 ? Double.NaN : maxima[second];
  }

  /** Seconds 0..n-1 as the x values of a plot (the bucket's end). */
  static List<Double> axis(int n) {
    List<Double> x = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      x.add(i + 1.0);
    }
    return x;
  }
}
