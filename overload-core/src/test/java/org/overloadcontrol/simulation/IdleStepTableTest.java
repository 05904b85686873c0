package org.overloadcontrol.simulation;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.overloadcontrol.simulation.SharedBottleneck.Result;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

/**
 * What {@code admission.idleHeadroom} costs a healthy load (docs/controller.md, "An idle limit
 * may come down"): 30 s at a tenth of the capacity, then at once a step to 0.6 or 0.9 of it,
 * the 5 s after the step measured, over 20 seeds, with the headroom off and at 2. Prints a
 * table; run with {@code -Dsimulation.idleStep=true}.
 */
@EnabledIfSystemProperty(named = "simulation.idleStep", matches = "true")
class IdleStepTableTest {

  @Test
  void printsAHealthyStepWithAndWithoutAnIdleHeadroom() {
    System.out.println(
        "| idle headroom | servers | step | refused or expired in the 5 s after | wait p90 / target,"
            + " mean | p90 / target, mean |");
    System.out.println("|---|---|---|---|---|---|");
    for (String headroom : new String[] {"off", "2"}) {
      for (int servers : new int[] {1, 4}) {
        for (double step : new double[] {0.6, 0.9}) {
          long refused = 0;
          long all = 0;
          double wait = 0;
          double p90 = 0;
          int seeds = 20;
          for (int seed = 1; seed <= seeds; seed++) {
            SharedBottleneck sim =
                new SharedBottleneck(
                    Variant.CONCURRENCY,
                    servers,
                    200,
                    seed,
                    Map.of("admission.idleHeadroom", headroom));
            sim.run(0.1, 30, 0, 0);
            Result r = sim.run(step, 5, 0);
            refused += r.refused() + r.expired();
            all += r.refused() + r.expired() + r.completed();
            wait += r.waitP90OfTarget();
            p90 += r.p90OfTarget();
          }
          System.out.printf(
              Locale.ROOT,
              "| %s | %d | 0.1 → %.1f × | %.1f %% (%d of %d) | %.2f | %.2f |%n",
              headroom,
              servers,
              step,
              100.0 * refused / all,
              refused,
              all,
              wait / seeds,
              p90 / seeds);
        }
      }
    }
  }
}
