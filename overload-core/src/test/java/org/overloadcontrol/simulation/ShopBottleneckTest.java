package org.overloadcontrol.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.simulation.SharedBottleneck.Result;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

/**
 * The default controller on the shop-like case of {@link SharedBottleneck}: the sample shop's
 * eight pages with two targets on one database connection, sessions of users who leave at their
 * first refusal, 1× to 10× the capacity (60 s per point, the first 10 s left out).
 */
class ShopBottleneckTest {

  private static final double[] LOADS = {1, 1.4, 2, 4, 10};

  @Test
  void theDatabaseNeverIdlesWhileRequestsWaitAndGoodputHoldsFromFourTimesTheCapacity() {
    for (double load : LOADS) {
      SharedBottleneck sim =
          SharedBottleneck.shop(Variant.CONCURRENCY, 42, Map.of(), AdmissionListener.NONE);
      Result r = sim.run(load, 60, 10);
      // Reservations of sparse checkout classes held browsing requests back while the one
      // connection sat idle (3–4 % of the time at 2× and 4×); their expiry ended sessions.
      assertThat(sim.idleWhileWaitingShare()).as("idle while waiting at %s×", load).isZero();
      // From 4×; at 1.4× and 2× the mean over eight seeds (below).
      if (load >= 4) {
        assertThat(r.goodputOfCapacity()).as("goodput at %s×", load).isGreaterThanOrEqualTo(0.95);
      }
      // 1.12 at 1.4× (seed 42): the p90 of payment's twenty-odd responses in 50 s.
      assertThat(r.worstEndpointP90())
          .as("worst page's p90 at %s×", load)
          .isLessThanOrEqualTo(1.15);
      // 18 at 10× (seed 42); over five seeds 17–23 with every class aimed at 7.7 %, 13–25
      // with sparse classes at 6 %.
      assertThat(r.purchasesPerMinute()).as("purchases at %s×", load).isGreaterThan(15);
      ConcurrencyAdmissionTest.assertSettled(sim);
    }
  }

  /**
   * Eight seeds, each one sweep of 60 s steps from 1× to 10× on one simulated shop, as the
   * overload sweep runs them: every page's p90 (whatever its number of responses) within 1.1 ×
   * its target at every step, and within 1.0 × at all but two of the forty page-steps' worst.
   * Without the predicted p90 of the class with the least slack a page of seed 16838 passed
   * 1.1 × at 2× (over 40 seeds, 13 of 200 step-runs had such a page and 132 a page over 1.0 ×).
   * The mean goodput at 1.4× is 0.894; with {@code admission.maxWait} at 0.5 instead of 0.7 it
   * was 0.876.
   */
  @Test
  void everyPageHoldsItsTargetAtEveryStepOfASweep() {
    int overTarget = 0;
    double[] goodput = new double[LOADS.length];
    int seeds = 8;
    for (int s = 0; s < seeds; s++) {
      long seed = 1000 + s * 7919L;
      SharedBottleneck sim =
          SharedBottleneck.shop(Variant.CONCURRENCY, seed, Map.of(), AdmissionListener.NONE);
      for (int i = 0; i < LOADS.length; i++) {
        Result r = sim.run(LOADS[i], 60, 5, i == LOADS.length - 1 ? 5 : 0);
        goodput[i] += r.goodputOfCapacity() / seeds;
        double worst = 0;
        for (double p90 : sim.pageP90s()) {
          if (p90 > worst) {
            worst = p90;
          }
        }
        // 1.15: since the limit grows additively when nothing queues and is not cut again on
        // requests admitted before a cut (the default for any application, not only the shop),
        // one step-run in a hundred over 20 seeds has a page at 1.13 (seed 56433 at 1.4×),
        // where none passed 1.1 before; the mean worst page stayed at 0.87–0.91.
        assertThat(worst)
            .as("worst page, seed %d at %s×", seed, LOADS[i])
            .isLessThanOrEqualTo(1.15);
        if (worst > 1.0) {
          overTarget++;
        }
      }
      ConcurrencyAdmissionTest.assertSettled(sim);
    }
    assertThat(overTarget).as("step-runs with a page over its target").isLessThanOrEqualTo(2);
    assertThat(goodput[1]).as("mean goodput at 1.4×").isGreaterThanOrEqualTo(0.885);
    assertThat(goodput[2]).as("mean goodput at 2×").isGreaterThanOrEqualTo(0.94);
    assertThat(goodput[4]).as("mean goodput at 10×").isGreaterThanOrEqualTo(0.99);
  }

  /**
   * Prints each page's p90 over its target whatever its number of responses (the shop's bar
   * counts a page served ten times), and the mean wait and execution of its responses over
   * the target, which say whether late responses waited long or executed long:
   * {@code -Dsimulation.pages=true}.
   */
  @Test
  @EnabledIfSystemProperty(named = "simulation.pages", matches = "true")
  void printsEachPage() {
    StringBuilder out = new StringBuilder();
    for (long seed : new long[] {42, 7, 11, 3, 5}) {
      for (double load : LOADS) {
        SharedBottleneck sim =
            SharedBottleneck.shop(Variant.CONCURRENCY, seed, Map.of(), AdmissionListener.NONE);
        Result r = sim.run(load, 60, 10);
        double[] p90 = sim.pageP90s();
        int[] served = sim.pageCounts();
        out.append(
            String.format(
                Locale.ROOT,
                "seed %d, %.1f×: goodput %.2f, purchases/min %.1f;",
                seed,
                load,
                r.goodputOfCapacity(),
                r.purchasesPerMinute()));
        for (int i = 0; i < p90.length; i++) {
          out.append(
              String.format(
                  Locale.ROOT, " %s %.2f (%d)", ShopSessions.NAMES[i], p90[i], served[i]));
        }
        out.append('\n');
        for (int i = 0; i < p90.length; i++) {
          long waited = 0;
          long executed = 0;
          for (long[] late : sim.lateResponses(i)) {
            waited += late[0];
            executed += late[1];
          }
          int n = sim.lateResponses(i).size();
          if (n > 0) {
            out.append(
                String.format(
                    Locale.ROOT,
                    "  %s: %d late, mean wait %.0f ms, mean execution %.0f ms%n",
                    ShopSessions.NAMES[i],
                    n,
                    waited / 1e6 / n,
                    executed / 1e6 / n));
          }
        }
      }
    }
    System.out.println(out);
  }

  /**
   * Prints, over {@code -Dsimulation.sweeps=N} seeds, each a sweep of 60 s steps from 1× to 10×
   * on one simulated shop: per step, the worst page's p90 over its target (mean and largest
   * over the seeds), how many seeds had a page over 1.1 × and over 1.0 ×, and the goodput
   * (smallest and mean). The table of docs/controller.md, "The predicted p90 of the class with
   * the least slack".
   */
  @Test
  @EnabledIfSystemProperty(named = "simulation.sweeps", matches = "\\d+")
  void printsSweepsOverSeeds() {
    int seeds = Integer.getInteger("simulation.sweeps");
    StringBuilder out =
        new StringBuilder(
            "| load | worst page's p90 / target, mean (max) | seeds over 1.1 × | over 1.0 × |"
                + " goodput / capacity, min / mean | checkout page-steps whose largest passed"
                + " 1.1 × |\n|---|---|---|---|---|---|\n");
    double[][] worst = new double[LOADS.length][seeds];
    double[][] goodput = new double[LOADS.length][seeds];
    int[] largestOver = new int[LOADS.length];
    int[] checkoutSteps = new int[LOADS.length];
    for (int s = 0; s < seeds; s++) {
      SharedBottleneck sim =
          SharedBottleneck.shop(
              Variant.CONCURRENCY, 1000 + s * 7919L, Map.of(), AdmissionListener.NONE);
      for (int i = 0; i < LOADS.length; i++) {
        Result r = sim.run(LOADS[i], 60, 5, i == LOADS.length - 1 ? 5 : 0);
        goodput[i][s] = r.goodputOfCapacity();
        for (double p90 : sim.pageP90s()) {
          worst[i][s] = Math.max(worst[i][s], Double.isNaN(p90) ? 0 : p90);
        }
        double[] largest = sim.pageLargest();
        for (int page = ShopSessions.CONFIRM - 3; page <= ShopSessions.CONFIRM; page++) {
          if (!Double.isNaN(largest[page])) {
            checkoutSteps[i]++;
            if (largest[page] > 1.1) {
              largestOver[i]++;
            }
          }
        }
      }
    }
    for (int i = 0; i < LOADS.length; i++) {
      double[] w = worst[i];
      double[] g = goodput[i];
      out.append(
          String.format(
              Locale.ROOT,
              "| %.1f× | %.3f (%.3f) | %d | %d | %.3f / %.3f | %d of %d |%n",
              LOADS[i],
              java.util.Arrays.stream(w).average().orElse(0),
              java.util.Arrays.stream(w).max().orElse(0),
              java.util.Arrays.stream(w).filter(x -> x > 1.1).count(),
              java.util.Arrays.stream(w).filter(x -> x > 1.0).count(),
              java.util.Arrays.stream(g).min().orElse(0),
              java.util.Arrays.stream(g).average().orElse(0),
              largestOver[i],
              checkoutSteps[i]));
    }
    System.out.println(out);
  }

  /**
   * Prints, over {@code -Dsimulation.sparse=N} seeds, each a sweep of 60 s steps from 1× to
   * 10× on one simulated shop offered the overload sweep's own session chain ({@link
   * ShopSessions#sweep()}, whose checkout pages are as sparse as the real shop's), per step:
   * goodput, the share of requests refused or expired, the worst page's p90, the checkout
   * pages' responses, and how many step-runs had a checkout response over 1.1 × its target
   * (at 10× the bar's p90 of a checkout page is its largest response).
   */
  @Test
  @EnabledIfSystemProperty(named = "simulation.sparse", matches = "\\d+")
  void printsSparseCheckoutSweepsOverSeeds() {
    System.out.println(SparseSweeps.run(Integer.getInteger("simulation.sparse"), Map.of()));
  }

  /** Prints the shop rows of docs/controller.md: {@code -Dsimulation.table=true}. */
  @Test
  @EnabledIfSystemProperty(named = "simulation.table", matches = "true")
  void printsTheTable() {
    StringBuilder out =
        new StringBuilder(
            "| seed | load | goodput / capacity | p90 / target |"
                + " worst page's p90 / target | idle while waiting | purchases/min |\n"
                + "|---|---|---|---|---|---|---|\n");
    for (long seed : new long[] {42, 7, 11}) {
      for (double load : LOADS) {
        SharedBottleneck sim =
            SharedBottleneck.shop(Variant.CONCURRENCY, seed, Map.of(), AdmissionListener.NONE);
        Result r = sim.run(load, 60, 10);
        out.append(
            String.format(
                Locale.ROOT,
                "| %d | %.1f× | %.2f | %.2f | %.2f | %.3f | %.1f |%n",
                seed,
                load,
                r.goodputOfCapacity(),
                r.p90OfTarget(),
                r.worstEndpointP90(),
                sim.idleWhileWaitingShare(),
                r.purchasesPerMinute()));
      }
    }
    System.out.println(out);
  }
}
