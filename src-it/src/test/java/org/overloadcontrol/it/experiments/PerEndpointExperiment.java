package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.load.ClosedLoopUsers;
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 4: Welsh & Culler 2003 Figure 11, per-stage versus single-stage admission
 * control. The same closed-loop users against the shop with one controller per page
 * (endpoint) and with every page routed to one endpoint ({@code endpoints.all.paths}); in
 * both, one class rule puts every request into the same class, so only the routing differs.
 * Per request type: p90 and reject rate.
 */
class PerEndpointExperiment {

  private static final double TIME_SCALE = 0.1;
  static final int USERS = 100;

  static final String ONE_CLASS =
      "classes:\n  everyone:\n    rank: 1\n" + "    match: {path: /*}\n";

  static String perEndpoint(String target) {
    return ExperimentShop.ADMISSION_ONLY
        + ExperimentShop.controller(TIME_SCALE)
        + ONE_CLASS
        + ExperimentShop.targets(target, target);
  }

  static String single(String target) {
    return ExperimentShop.ADMISSION_ONLY
        + ExperimentShop.controller(TIME_SCALE)
        + ONE_CLASS
        + ExperimentShop.targets("none", "none")
        + "  all:\n    target: "
        + target
        + "\n    controller: {initialRate: 80}\n"
        + "    paths: [/, /browse, /search, /product, /login, /shipping, /payment, /confirm]\n";
  }

  @Test
  void perEndpointVersusSingle() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    SessionModel model = SessionModel.calibrated();
    UserBehaviour users =
        new UserBehaviour(
                Duration.ofSeconds(60),
                Duration.ZERO,
                0,
                0,
                Duration.ofMillis(20),
                Duration.ofSeconds(5))
            .scaled(TIME_SCALE);
    String target = Math.round(1000 * TIME_SCALE) + "ms";
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put("per-endpoint", perEndpoint(target));
    configs.put("single", single(target));
    Map<String, RunResult> results = new LinkedHashMap<>();
    StringBuilder runs = new StringBuilder();
    for (Map.Entry<String, String> c : configs.entrySet()) {
      String load = ExperimentShop.load();
      try (ExperimentShop shop =
          ExperimentShop.start("stages-" + c.getKey(), TIME_SCALE, 1, c.getValue(), 2048)) {
        RunResult r =
            new ClosedLoopUsers(shop.client, model, users, shop.gauge)
                .run(
                    List.of(
                        new ClosedLoopUsers.Group("users", StepSchedule.constant(USERS), Map.of())),
                    Duration.ofSeconds(seconds),
                    Duration.ofSeconds(1),
                    9L);
        results.put(c.getKey(), r);
        String prefix = "stages-" + c.getKey();
        RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
        List<String> plots = RunReport.plotSeries(ExperimentShop.OUT, prefix, c.getKey(), r);
        runs.append(
            String.format(
                Locale.ROOT,
                "## %s (load average at start %s)%n%n%s%n%n%s%n",
                c.getKey(),
                load,
                RunReport.summary(r),
                RunReport.perType(r)));
        plots.forEach(p -> runs.append("![](").append(p).append(")\n"));
        runs.append('\n');
        System.out.println(prefix + ": " + RunReport.summary(r));
      }
    }
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Experiment 4: per-endpoint vs single admission controller (Welsh & Culler Figure"
                    + " 11)%n%nSample WAR in embedded Jetty 12, shop.timeScale %.2f, 1 database connection,"
                    + " %d closed-loop users (think %d ms, %d ms pause after a 503), %d s (whole run"
                    + " counted). p90 target %s, controller round timeout 1 s × time scale. Service times"
                    + " differ by page (200–500 ms × scale).%n%n"
                    + "| request type | service ms | per-endpoint p90 ms | per-endpoint rejected %% |"
                    + " single p90 ms | single rejected %% |%n|---|---|---|---|---|---|%n",
                TIME_SCALE,
                USERS,
                users.meanThinkTime().toMillis(),
                users.rejectionPause().toMillis(),
                seconds,
                target));
    List<String> categories = new ArrayList<>();
    Map<String, List<Double>> bars = new LinkedHashMap<>();
    results.keySet().forEach(k -> bars.put(k, new ArrayList<>()));
    for (ShopRequest t : ShopRequest.PAGES) {
      categories.add(t.endpoint());
      md.append(
          String.format(
              Locale.ROOT, "| %s | %.0f |", t.endpoint(), t.serviceMillis() * TIME_SCALE));
      for (Map.Entry<String, RunResult> e : results.entrySet()) {
        RunResult.TypeCounts c = e.getValue().types().get(t);
        md.append(
            String.format(
                Locale.ROOT, " %.0f | %.1f |", c.percentileMillis(90), 100 * c.rejectedFraction()));
        bars.get(e.getKey()).add(Math.round(1000 * c.rejectedFraction()) / 10.0);
      }
      md.append('\n');
    }
    for (Map.Entry<String, RunResult> e : results.entrySet()) {
      RunResult.TypeCounts all = e.getValue().total();
      md.append(
          String.format(
              Locale.ROOT,
              "%n- %s: all requests p90 %.0f ms, %.1f %% rejected," + " %.1f pages/s served",
              e.getKey(),
              all.percentileMillis(90),
              100 * all.rejectedFraction(),
              e.getValue().pageGoodputPerSecond()));
    }
    Charts.bars(
        ExperimentShop.OUT.resolve("stages-rejected.png"),
        "Rejected % per request type (Welsh & Culler Figure 11)",
        "%",
        categories,
        bars);
    md.append("\n\n![](stages-rejected.png)\n\n").append(runs);
    Files.writeString(ExperimentShop.OUT.resolve("stages.md"), md.toString());
  }
}
