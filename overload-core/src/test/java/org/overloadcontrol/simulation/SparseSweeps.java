package org.overloadcontrol.simulation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.simulation.SharedBottleneck.Result;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

/**
 * Sweeps of the shop-like simulation offered the overload sweep's own session chain ({@link
 * ShopSessions#sweep()}), summed over seeds: what the sweep's bar meets at each step when a
 * checkout page gets a few responses a step, as on the real shop at 10×.
 */
final class SparseSweeps {

  static final double[] LOADS = {1, 1.4, 2, 4, 10};

  /** What the seeds' sweeps measured, per step. */
  record Summary(
      double[] goodputMean,
      double[] goodputMin,
      double[] refusedShare,
      int[] worstOver,
      int[] checkoutLargestOver,
      double[] checkoutLargestMax,
      double[] checkoutLargestMean,
      double[] checkoutResponsesPerPage,
      double[] purchasesPerMinute,
      int seeds,
      String misses) {}

  private SparseSweeps() {}

  static Summary measure(int seeds, Map<String, String> extra) {
    int n = LOADS.length;
    double[] goodputMean = new double[n];
    double[] goodputMin = new double[n];
    Arrays.fill(goodputMin, Double.MAX_VALUE);
    long[] refused = new long[n];
    long[] offered = new long[n];
    int[] worstOver = new int[n];
    int[] largestOver = new int[n];
    double[] largestMax = new double[n];
    double[] largestSum = new double[n];
    int[] largestRuns = new int[n];
    long[] checkoutResponses = new long[n];
    double[] purchases = new double[n];
    StringBuilder misses = new StringBuilder();
    for (int s = 0; s < seeds; s++) {
      SharedBottleneck sim =
          SharedBottleneck.shop(
              Variant.CONCURRENCY,
              1000 + s * 7919L,
              extra,
              AdmissionListener.NONE,
              ShopSessions.sweep());
      for (int i = 0; i < n; i++) {
        Result r = sim.run(LOADS[i], 60, 5, i == n - 1 ? 5 : 0);
        goodputMean[i] += r.goodputOfCapacity() / seeds;
        purchases[i] += r.purchasesPerMinute() / seeds;
        goodputMin[i] = Math.min(goodputMin[i], r.goodputOfCapacity());
        refused[i] += r.refused() + r.expired();
        offered[i] += r.refused() + r.expired() + r.completed();
        double worst = 0;
        for (double p90 : sim.pageP90s()) {
          worst = Math.max(worst, Double.isNaN(p90) ? 0 : p90);
        }
        if (worst > 1.1) {
          worstOver[i]++;
        }
        if (i == n - 1) {
          noteMisses(misses, 1000 + s * 7919L, LOADS[i], sim);
        }
        double largest = Double.NaN;
        double[] pageLargest = sim.pageLargest();
        int[] counts = sim.pageCounts();
        for (int page = ShopSessions.CONFIRM - 3; page <= ShopSessions.CONFIRM; page++) {
          checkoutResponses[i] += counts[page];
          if (!Double.isNaN(pageLargest[page]) && !(pageLargest[page] <= largest)) {
            largest = pageLargest[page];
          }
        }
        if (!Double.isNaN(largest)) {
          largestRuns[i]++;
          largestSum[i] += largest;
          largestMax[i] = Math.max(largestMax[i], largest);
          if (largest > 1.1) {
            largestOver[i]++;
          }
        }
      }
      ConcurrencyAdmissionTest.assertSettled(sim);
    }
    double[] refusedShare = new double[n];
    double[] largestMean = new double[n];
    double[] perPage = new double[n];
    for (int i = 0; i < n; i++) {
      refusedShare[i] = refused[i] / (double) Math.max(1, offered[i]);
      largestMean[i] = largestSum[i] / Math.max(1, largestRuns[i]);
      perPage[i] = checkoutResponses[i] / (4.0 * seeds);
    }
    return new Summary(
        goodputMean,
        goodputMin,
        refusedShare,
        worstOver,
        largestOver,
        largestMax,
        largestMean,
        perPage,
        purchases,
        seeds,
        misses.toString());
  }

  /** One line per page whose p90 or largest response passed 1.1 × its target in the step. */
  private static void noteMisses(StringBuilder out, long seed, double load, SharedBottleneck sim) {
    double[] p90 = sim.pageP90s();
    double[] largest = sim.pageLargest();
    int[] counts = sim.pageCounts();
    for (int page = 0; page < p90.length; page++) {
      if (largest[page] > 1.1 && (p90[page] > 1.1 || page >= ShopSessions.CONFIRM - 3)) {
        out.append(
            String.format(
                Locale.ROOT,
                "seed %d, %.1f×: %s p90 %.3f, largest %.3f, %d responses%n",
                seed,
                load,
                ShopSessions.NAMES[page],
                p90[page],
                largest[page],
                counts[page]));
        for (long[] l : sim.lateResponses(page)) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "  waited %d ms, executed %d ms%n",
                  l[0] / 1_000_000,
                  l[1] / 1_000_000));
        }
      }
    }
  }

  static String run(int seeds, Map<String, String> extra) {
    Summary m = measure(seeds, extra);
    StringBuilder out =
        new StringBuilder(
            "| load | goodput / capacity, mean (min) | refused or expired | step-runs with a page"
                + " over 1.1 × | step-runs with a checkout response over 1.1 × | largest checkout"
                + " response / target, mean (max) | checkout responses a page | purchases a minute |\n"
                + "|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < LOADS.length; i++) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %.1f× | %.3f (%.3f) | %.1f %% | %d of %d | %d of %d | %.3f (%.3f) | %.1f | %.1f |%n",
              LOADS[i],
              m.goodputMean()[i],
              m.goodputMin()[i],
              100 * m.refusedShare()[i],
              m.worstOver()[i],
              seeds,
              m.checkoutLargestOver()[i],
              seeds,
              m.checkoutLargestMean()[i],
              m.checkoutLargestMax()[i],
              m.checkoutResponsesPerPage()[i],
              m.purchasesPerMinute()[i]));
    }
    return out.append(m.misses()).toString();
  }
}
