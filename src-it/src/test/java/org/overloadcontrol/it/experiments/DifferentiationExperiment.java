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
 * Experiment 5: Welsh & Culler 2003 Figures 14 and 15, service differentiation between two user
 * classes. Low-priority users load the shop for the whole run; as many high-priority users
 * join for its middle part. The class comes from a request header ({@code X-User-Class}), as
 * in the paper. Differentiation off: no class rule, every request keeps its page's class.
 * On: class rules put the two user groups into classes {@code low} (rank 10) and
 * {@code high} (rank 20), so the multiclass controller (§3.3) cuts low before high.
 */
class DifferentiationExperiment {

  private static final double TIME_SCALE = 0.1;
  static final int USERS_PER_CLASS = 60;

  static final String CLASS_RULES = "classes:\n"
      + "  low:\n    rank: 10\n    match: {header: X-User-Class=low}\n"
      + "  high:\n    rank: 20\n    match: {header: X-User-Class=high}\n";

  @Test
  void twoUserClasses() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 90);
    double highFrom = seconds / 3.0;
    double highTo = 2 * seconds / 3.0;
    SessionModel model = SessionModel.calibrated();
    UserBehaviour users = new UserBehaviour(Duration.ofSeconds(60), Duration.ZERO, 0, 0,
        Duration.ofMillis(20), Duration.ofSeconds(5)).scaled(TIME_SCALE);
    String target = Math.round(1000 * TIME_SCALE) + "ms";
    String base = ExperimentShop.ADMISSION_ONLY + ExperimentShop.controller(TIME_SCALE)
        + ExperimentShop.targets(target, target);
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "# Experiment 5: two user classes (Welsh & Culler Figures 14 and 15)%n%nSample WAR in"
        + " embedded Jetty 12, shop.timeScale %.2f, 1 database connection. %d low-priority"
        + " closed-loop users throughout; %d high-priority users from %.0f s to %.0f s (header"
        + " X-User-Class). Think %d ms, %d ms pause after a 503. Every page's p90 target %s;"
        + " controller round timeout 1 s × time scale.%n%n"
        + "| differentiation | low: rejected %% while both active | high: rejected %% while"
        + " both active | low p90 ms | high p90 ms |%n|---|---|---|---|---|%n", TIME_SCALE,
        USERS_PER_CLASS, USERS_PER_CLASS, highFrom, highTo, users.meanThinkTime().toMillis(),
        users.rejectionPause().toMillis(), target));
    StringBuilder runs = new StringBuilder();
    for (boolean on : new boolean[] {false, true}) {
      String name = on ? "differentiation on" : "differentiation off";
      String load = ExperimentShop.load();
      try (ExperimentShop shop = ExperimentShop.start("classes-" + (on ? "on" : "off"),
          TIME_SCALE, 1, on ? base + CLASS_RULES : base, 2048)) {
        RunResult r = new ClosedLoopUsers(shop.client, model, users, shop.gauge).run(List.of(
            new ClosedLoopUsers.Group("low", StepSchedule.constant(USERS_PER_CLASS),
                Map.of("X-User-Class", "low")),
            new ClosedLoopUsers.Group("high",
                StepSchedule.spike(0, USERS_PER_CLASS, highFrom, highTo),
                Map.of("X-User-Class", "high"))),
            Duration.ofSeconds(seconds), Duration.ofSeconds(1), 5L);
        String prefix = "classes-" + (on ? "on" : "off");
        RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
        List<Charts.Line> rejected = new ArrayList<>();
        List<Charts.Line> p90 = new ArrayList<>();
        double[] during = new double[2];
        double[] groupP90 = new double[2];
        int i = 0;
        for (String group : List.of("low", "high")) {
          List<RunResult.SeriesPoint> s = r.groupSeries().getOrDefault(group, List.of());
          List<Double> t = s.stream().map(RunResult.SeriesPoint::seconds).toList();
          rejected.add(new Charts.Line(group, t,
              s.stream().map(RunResult.SeriesPoint::rejectedFraction).toList()));
          p90.add(new Charts.Line(group, t,
              s.stream().map(RunResult.SeriesPoint::p90Millis).toList()));
          long rej = 0;
          long ended = 0;
          for (RunResult.SeriesPoint p : s) {
            if (p.seconds() > highFrom + 2 && p.seconds() <= highTo) {
              rej += p.rejected();
              ended += p.completed() + p.rejected() + p.timedOut();
            }
          }
          during[i] = ended == 0 ? Double.NaN : 100.0 * rej / ended;
          RunResult.TypeCounts c = r.groups().get(group);
          groupP90[i++] = c == null ? Double.NaN : c.percentileMillis(90);
        }
        Charts.lines(ExperimentShop.OUT.resolve(prefix + "-rejected.png"), name
            + ": fraction rejected per user class", "time (s)", "fraction", rejected, false);
        Charts.lines(ExperimentShop.OUT.resolve(prefix + "-p90.png"), name
            + ": p90 per user class", "time (s)", "p90 (ms)", p90, true);
        md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.0f | %.0f |%n",
            on ? "on" : "off", during[0], during[1], groupP90[0], groupP90[1]));
        runs.append(String.format(Locale.ROOT, "## %s (load average at start %s)%n%n%s%n%n%s%n"
            + "%s%n![](%s-rejected.png)%n![](%s-p90.png)%n%n", name, load,
            RunReport.summary(r), RunReport.perGroup(r), RunReport.perType(r), prefix, prefix));
        System.out.println(prefix + ": " + RunReport.summary(r) + " " + r.groups().keySet());
      }
    }
    md.append("\nPaper: off 55.5 % (low) / 57.6 % (high); on 87.9 % (low) / 48.8 % (high).\n\n")
        .append(runs);
    Files.writeString(ExperimentShop.OUT.resolve("classes.md"), md.toString());
  }
}
