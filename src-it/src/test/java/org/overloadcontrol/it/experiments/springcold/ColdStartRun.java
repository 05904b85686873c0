package org.overloadcontrol.it.experiments.springcold;

import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.it.serverlog.ServedRequest;

/**
 * What one run measured: ab's two summaries (the first window from the moment Spring Boot had
 * started, then the second), and from the server's own log the answers per second, split into
 * served (200) and refused (503, 429), with the starter's concurrency limit per second. Seconds
 * count from the first ab's start; an answer counts in the second in which it completed.
 */
record ColdStartRun(
    String variant,
    int round,
    double startSeconds,
    List<String> serverCommand,
    String springArguments,
    ApacheBench.Result first,
    ApacheBench.Result second,
    long[] served,
    long[] refused,
    long[] other,
    double[] limit,
    String group,
    double[] servedMillis) {

  /** The percentiles of {@link #servedMillis}: the server's times of the served requests. */
  static final double[] PERCENTILES = {50, 90, 99};

  /** Analyses one run's logs; {@code seconds} is both windows together. */
  static ColdStartRun of(
      String variant,
      int round,
      double startSeconds,
      List<String> serverCommand,
      String springArguments,
      ApacheBench.Result first,
      ApacheBench.Result second,
      ColdStartProcess.Logs logs,
      int firstSeconds,
      int seconds) {
    long start = first.startNanos();
    long[] served = new long[seconds];
    long[] refused = new long[seconds];
    long[] other = new long[seconds];
    List<Double> firstWindow = new ArrayList<>();
    for (ServedRequest r : logs.requests()) {
      int s = second(start, r.completionNanos());
      if (s < 0 || s >= seconds) {
        continue;
      }
      if (r.status() == 200) {
        served[s]++;
        if (s < firstSeconds) {
          firstWindow.add(r.responseNanos() / 1e6);
        }
      } else if (r.status() == 503 || r.status() == 429) {
        refused[s]++;
      } else {
        other[s]++;
      }
    }
    double[] limitSums = new double[seconds];
    int[] limitCounts = new int[seconds];
    String group = "";
    for (ColdStartProcess.LimitSample l : logs.limits()) {
      int s = second(start, l.nanos());
      if (s >= 0 && s < seconds) {
        limitSums[s] += l.limit();
        limitCounts[s]++;
        group = l.group();
      }
    }
    double[] limit = new double[seconds];
    for (int s = 0; s < seconds; s++) {
      limit[s] = limitCounts[s] == 0 ? Double.NaN : limitSums[s] / limitCounts[s];
    }
    double[] millis = new double[PERCENTILES.length];
    firstWindow.sort(null);
    for (int i = 0; i < millis.length; i++) {
      millis[i] = percentile(firstWindow, PERCENTILES[i]);
    }
    return new ColdStartRun(
        variant,
        round,
        startSeconds,
        serverCommand,
        springArguments,
        first,
        second,
        served,
        refused,
        other,
        limit,
        group,
        millis);
  }

  /** The sum of {@code counts} over seconds [from, to). */
  static long sum(long[] counts, int from, int to) {
    long n = 0;
    for (int s = Math.max(0, from); s < Math.min(to, counts.length); s++) {
      n += counts[s];
    }
    return n;
  }

  /** The mean of the non-NaN values over seconds [from, to); NaN when there are none. */
  static double mean(double[] values, int from, int to) {
    double sum = 0;
    int n = 0;
    for (int s = Math.max(0, from); s < Math.min(to, values.length); s++) {
      if (!Double.isNaN(values[s])) {
        sum += values[s];
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  private static int second(long start, long nanos) {
    return (int) Math.floorDiv(nanos - start, 1_000_000_000L);
  }

  private static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int i = (int) Math.ceil(p / 100 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }
}
