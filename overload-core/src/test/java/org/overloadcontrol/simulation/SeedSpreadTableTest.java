package org.overloadcontrol.simulation;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.overloadcontrol.simulation.SharedBottleneck.Result;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

/**
 * The eight-endpoint shared bottleneck ({@link SharedBottleneck}, one server of two workers,
 * target 200 ms) over {@code -Dsimulation.spread=N} seeds at 1×, 2× and 10×: the mean and the
 * largest of the worst endpoint's p90 and of the goodput, so that a controller change is read
 * over seeds, not on the one seed a unit test pins.
 */
@EnabledIfSystemProperty(named = "simulation.spread", matches = "\\d+")
class SeedSpreadTableTest {

  @Test
  void printsTheSpreadOverSeeds() {
    int seeds = Integer.getInteger("simulation.spread");
    System.out.println(
        "| load | worst endpoint's p90 / target, mean (max) | goodput, mean (min) | refused |");
    System.out.println("|---|---|---|---|");
    for (double load : new double[] {1, 2, 10}) {
      double worst = 0;
      double worstMax = 0;
      double goodput = 0;
      double goodputMin = 9;
      double refused = 0;
      for (int seed = 1; seed <= seeds; seed++) {
        Result r =
            new SharedBottleneck(Variant.CONCURRENCY, 1, 200, seed, Map.of()).run(load, 40, 10);
        worst += r.worstEndpointP90() / seeds;
        worstMax = Math.max(worstMax, r.worstEndpointP90());
        goodput += r.goodputOfCapacity() / seeds;
        goodputMin = Math.min(goodputMin, r.goodputOfCapacity());
        refused +=
            (r.refused() + r.expired())
                / (double) (r.refused() + r.expired() + r.completed())
                / seeds;
      }
      System.out.printf(
          Locale.ROOT,
          "| %.0f× | %.2f (%.2f) | %.2f (%.2f) | %.1f %% |%n",
          load,
          worst,
          worstMax,
          goodput,
          goodputMin,
          100 * refused);
    }
  }
}
