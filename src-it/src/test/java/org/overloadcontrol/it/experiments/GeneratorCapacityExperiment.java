package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * How many requests per second the session generator sustains on this machine, so the
 * experiments can show it is not their bottleneck: the shop with no simulated work
 * ({@code shop.timeScale=0}) and no filter, sessions without think time, at rising rates.
 * Client and server share the machine, so this is a lower bound on the generator alone.
 */
class GeneratorCapacityExperiment {

  @Test
  void sustainedRate() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 15);
    SessionModel model = SessionModel.calibrated();
    UserBehaviour users =
        new UserBehaviour(
            Duration.ofSeconds(10), Duration.ZERO, 0, 0, Duration.ZERO, Duration.ZERO);
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# The generator's"
                    + " sustained rate%n%nSample WAR in embedded Jetty 12, shop.timeScale 0 (no simulated"
                    + " work), filter off; LIFO-Pri sessions without think time; %d s per rate.%n%n"
                    + "| offered requests/s | achieved requests/s | completed %% | p50 ms | p99 ms |"
                    + " worst generator lag ms | load avg |%n|---|---|---|---|---|---|---|%n",
                seconds));
    try (ExperimentShop shop = ExperimentShop.start("generator", 0, 4, "enabled: false\n", 2048)) {
      for (double requestRate : new double[] {250, 500, 1000, 2000}) {
        String load = ExperimentShop.load();
        RunResult r =
            new SessionLoadGenerator(shop.client, model, users, shop.gauge, Map.of())
                .run(
                    StepSchedule.constant(requestRate / model.requestsPerSession()),
                    Duration.ofSeconds(seconds),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(1),
                    13L);
        RunResult.TypeCounts t = r.total();
        long sentInWindow =
            r.series().stream()
                .filter(p -> p.seconds() <= seconds)
                .mapToLong(RunResult.SeriesPoint::generated)
                .sum();
        md.append(
            String.format(
                Locale.ROOT,
                "| %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | %s |%n",
                requestRate,
                sentInWindow / (double) seconds,
                100.0 * t.completed() / t.generated(),
                t.percentileMillis(50),
                t.percentileMillis(99),
                r.lagMaxMillis(),
                load));
      }
    }
    Files.writeString(ExperimentShop.OUT.resolve("generator.md"), md.toString());
    System.out.println(md);
  }
}
