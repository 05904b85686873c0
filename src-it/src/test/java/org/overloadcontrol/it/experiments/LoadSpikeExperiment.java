package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.load.ClosedLoopUsers;
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 3: Welsh & Culler 2003 Figure 10, overload control under a massive load spike.
 * Closed-loop users (think time 20 ms, 5 s pause after a rejection, both × the time scale)
 * walk the shop; a base of 3 users jumps to {@link #PEAK_USERS} and returns. With the filter
 * (every page's p90 target 1 s × time scale) and without: p90 over time, and the fraction
 * rejected.
 */
class LoadSpikeExperiment {

  private static final double TIME_SCALE = 0.1;
  static final int PEAK_USERS = 150;

  @Test
  void loadSpike() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 80);
    double spikeStart = seconds * 0.25;
    double spikeEnd = seconds * 0.75;
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
    // -Dexperiment.idleHeadroom=2: the concurrency limit's opt-in idle headroom.
    String idleHeadroom = System.getProperty("experiment.idleHeadroom", "").trim();
    String withFilter =
        ExperimentShop.ADMISSION_ONLY
            + ExperimentShop.controller(TIME_SCALE)
            + ExperimentShop.targets(target, target)
            + (idleHeadroom.isEmpty() ? "" : "admission: {idleHeadroom: " + idleHeadroom + "}\n");
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Experiment 3: load spike (Welsh & Culler Figure 10)%n%nSample WAR in embedded"
                    + " Jetty 12, shop.timeScale %.2f, 1 database connection. Closed-loop users: think"
                    + " %d ms, %d ms pause after a 503; 3 users, %d from %.0f s to %.0f s, then 3 again."
                    + " Filter on: every page's p90 target %s (the paper's 1 s × time scale), initial"
                    + " rate 20/s per endpoint, controller round timeout 1 s × time scale%s.%n%n",
                TIME_SCALE,
                users.meanThinkTime().toMillis(),
                users.rejectionPause().toMillis(),
                PEAK_USERS,
                spikeStart,
                spikeEnd,
                target,
                idleHeadroom.isEmpty() ? "" : ", admission.idleHeadroom " + idleHeadroom));
    List<Charts.Line> p90 = new ArrayList<>();
    List<Charts.Line> rejected = new ArrayList<>();
    for (boolean filter : new boolean[] {true, false}) {
      String name = filter ? "with control" : "without control";
      String load = ExperimentShop.load();
      try (ExperimentShop shop =
          ExperimentShop.start(
              "spike-" + (filter ? "on" : "off"),
              TIME_SCALE,
              1,
              filter ? withFilter : "enabled: false\n",
              2048)) {
        RunResult r =
            new ClosedLoopUsers(shop.client, model, users, shop.gauge)
                .run(
                    List.of(
                        new ClosedLoopUsers.Group(
                            "users",
                            StepSchedule.spike(3, PEAK_USERS, spikeStart, spikeEnd),
                            Map.of())),
                    Duration.ofSeconds(seconds),
                    Duration.ofSeconds(1),
                    3L);
        String prefix = "spike-" + (filter ? "on" : "off");
        RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
        List<String> plots = RunReport.plotSeries(ExperimentShop.OUT, prefix, name, r);
        List<Double> t = r.series().stream().map(RunResult.SeriesPoint::seconds).toList();
        p90.add(
            new Charts.Line(
                name, t, r.series().stream().map(RunResult.SeriesPoint::p90Millis).toList()));
        rejected.add(
            new Charts.Line(
                name,
                t,
                r.series().stream().map(RunResult.SeriesPoint::rejectedFraction).toList()));
        double spikeRejected = spikeFraction(r, spikeStart, spikeEnd);
        double spikeP90 =
            r.series().stream()
                .filter(p -> p.seconds() > spikeStart + 5 && p.seconds() <= spikeEnd)
                .mapToDouble(RunResult.SeriesPoint::p90Millis)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(Double.NaN);
        md.append(
            String.format(
                Locale.ROOT,
                "## %s (load average at start %s)%n%n%s%n%n"
                    + "During the spike (after its first 5 s): worst 1-s p90 %.0f ms; %.1f %% of"
                    + " requests rejected over the whole spike.%n%n%s%n",
                name,
                load,
                RunReport.summary(r),
                spikeP90,
                100 * spikeRejected,
                RunReport.perType(r)));
        plots.forEach(p -> md.append("![](").append(p).append(")\n"));
        md.append('\n');
        System.out.println(prefix + ": " + RunReport.summary(r));
      }
    }
    Charts.lines(
        ExperimentShop.OUT.resolve("spike-p90.png"),
        "Load spike: p90 of completed requests (1-s windows)",
        "time (s)",
        "p90 (ms)",
        p90,
        true);
    Charts.lines(
        ExperimentShop.OUT.resolve("spike-rejected.png"),
        "Load spike: fraction of requests rejected",
        "time (s)",
        "fraction",
        rejected,
        false);
    md.insert(md.indexOf("## "), "![](spike-p90.png)\n![](spike-rejected.png)\n\n");
    Files.writeString(ExperimentShop.OUT.resolve("spike.md"), md.toString());
  }

  static double spikeFraction(RunResult r, double from, double to) {
    long rejected = 0;
    long ended = 0;
    for (RunResult.SeriesPoint p : r.series()) {
      if (p.seconds() > from && p.seconds() <= to) {
        rejected += p.rejected();
        ended += p.completed() + p.rejected() + p.timedOut();
      }
    }
    return ended == 0 ? 0 : (double) rejected / ended;
  }
}
