package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 2: LIFO-Pri Table 1 (Singhmar et al. 2004, §3.1). One request type (the home
 * page), Poisson arrivals at ρ = 1.47, one queue of 50 in front of one execution permit,
 * served Always-FIFO, Always-LIFO or LIFO-at-overload, with a long and a short fixed timeout
 * and no retries.
 *
 * <p>Scaling the timeouts: in the paper a full FIFO queue of 50 gave response times around 20 s
 * (the mode of Figure 4, all under 24 s), about 0.44 s per request, so its 20 s and 40 s
 * timeouts are worth 45 and 90 service times. Ours are 45 and 90 times our measured service
 * time of a home page.
 */
class FifoLifoExperiment {

  private static final double TIME_SCALE = 0.1;
  private static final double RHO = 1.47;

  static String yaml(String order) {
    return ExperimentShop.NO_VIRTUAL_QUEUE
        + ExperimentShop.targets("none", "none")
        + "queue:\n  permits: 1\n  maxWait: 60s\n  layout: single\n  singleCapacity: 50\n"
        + "  order: "
        + order
        + "\n"
        + "  overload: {signal: queue-delay, window: 500ms, enterDelay: 50ms,"
        + " exitDelay: 10ms}\n";
  }

  @Test
  void table1() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    SessionModel homeOnly = SessionModel.of(new double[8][8]);
    Map<String, String> orders = new LinkedHashMap<>();
    orders.put("Always-FIFO", "fifo");
    orders.put("Always-LIFO", "lifo");
    orders.put("LIFO-at-overload", "lifo-at-overload");
    double capacity;
    try (ExperimentShop shop =
        ExperimentShop.start("table1-calibration", TIME_SCALE, 1, yaml("fifo"), 256)) {
      capacity = shop.measureCapacity(homeOnly, 9);
    }
    double serviceMillis = 1000 / capacity;
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Experiment 2: FIFO vs LIFO in one queue of 50 (LIFO-Pri Table 1)%n%nSample WAR in"
                    + " embedded Jetty 12, shop.timeScale %.2f, 1 database connection, home page only"
                    + " (nominal 20 ms): measured capacity %.1f requests/s (%.1f ms each). Poisson"
                    + " arrivals at ρ = %.2f (%.1f/s), %d s per run; one queue of 50, one permit. Timeouts"
                    + " fixed, no retries: long = 90 service times (%.0f ms, the paper's 40 s), short ="
                    + " 45 (%.0f ms, the paper's 20 s).%n%n",
                TIME_SCALE,
                capacity,
                serviceMillis,
                RHO,
                RHO * capacity,
                seconds,
                90 * serviceMillis,
                45 * serviceMillis));
    StringBuilder runs = new StringBuilder();
    Map<String, List<Double>> completedBars = new LinkedHashMap<>();
    for (String timeout : List.of("long", "short")) {
      long timeoutMillis = Math.round((timeout.equals("long") ? 90 : 45) * serviceMillis);
      UserBehaviour users =
          new UserBehaviour(
              Duration.ofMillis(timeoutMillis), Duration.ZERO, 0, 0, Duration.ZERO, Duration.ZERO);
      Map<String, RunResult> results = new LinkedHashMap<>();
      for (Map.Entry<String, String> o : orders.entrySet()) {
        String load = ExperimentShop.load();
        try (ExperimentShop shop =
            ExperimentShop.start(
                "table1-" + o.getValue(), TIME_SCALE, 1, yaml(o.getValue()), 1024)) {
          RunResult r =
              new SessionLoadGenerator(shop.client, homeOnly, users, shop.gauge, Map.of())
                  .run(
                      StepSchedule.constant(RHO * capacity),
                      Duration.ofSeconds(seconds),
                      Duration.ofSeconds(10),
                      Duration.ofSeconds(1),
                      11L);
          results.put(o.getKey(), r);
          String prefix = "table1-" + timeout + "-" + o.getValue();
          RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
          RunResult.TypeCounts h = r.types().get(ShopRequest.HOME);
          runs.append(
              String.format(
                  Locale.ROOT,
                  "- %s timeout, %s (load average %s): %s;"
                      + " completed p50 %.0f ms, p90 %.0f ms, p99 %.0f ms%n",
                  timeout,
                  o.getKey(),
                  load,
                  RunReport.summary(r),
                  h.percentileMillis(50),
                  h.percentileMillis(90),
                  h.percentileMillis(99)));
          System.out.println(prefix + ": " + RunReport.summary(r));
        }
      }
      md.append(
          String.format(Locale.ROOT, "## %s timeout (%d ms)%n%n| %% |", timeout, timeoutMillis));
      results.keySet().forEach(k -> md.append(' ').append(k).append(" |"));
      md.append("\n|---|---|---|---|\n");
      String[] labels = {"requests completed", "requests timeout", "requests dropped"};
      for (int i = 0; i < labels.length; i++) {
        md.append("| ").append(labels[i]).append(" |");
        for (RunResult r : results.values()) {
          RunResult.TypeCounts t = r.total();
          double all = t.generated();
          double v =
              switch (i) {
                case 0 -> t.completed();
                case 1 -> t.timedOut();
                default -> t.rejected() + t.failed();
              };
          md.append(String.format(Locale.ROOT, " %.1f |", 100 * v / all));
        }
        md.append('\n');
      }
      md.append('\n');
      completedBars.put(
          timeout + " timeout",
          results.values().stream()
              .map(r -> Math.round(1000.0 * r.total().completed() / r.total().generated()) / 10.0)
              .toList());
    }
    Charts.bars(
        ExperimentShop.OUT.resolve("table1-completed.png"),
        "Requests completed, % (LIFO-Pri Table 1, rho 1.47)",
        "%",
        List.copyOf(orders.keySet()),
        completedBars);
    md.append(
            "Paper (Table 1), completed %: 40 s timeout 86.7 / 84.4 / 84.6; 20 s timeout"
                + " 21.9 / 81.0 / 76.8 (FIFO / LIFO / LIFO-at-overload).\n\n"
                + "![](table1-completed.png)\n\n## Runs\n\n")
        .append(runs);
    Files.writeString(ExperimentShop.OUT.resolve("table1.md"), md.toString());
  }
}
