package org.overloadcontrol.it.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.overloadcontrol.it.support.ContainerHooks;

/**
 * Experiment 5: Welsh & Culler 2003 Figures 14 and 15, service differentiation between two user
 * classes. Low-priority users load the shop for the whole run; as many high-priority users
 * join for its middle part. The class comes from a request header ({@code X-User-Class}), as
 * in the paper. Differentiation off: no class rule, every request keeps its page's class.
 * On: class rules put the two user groups into classes {@code low} (rank 10) and
 * {@code high} (rank 20), so the multiclass controller (§3.3) cuts low before high, or the
 * concurrency limit's partitions keep the high class's share against the low one.
 *
 * <p>{@code -Dexperiment.controllers} (default {@code concurrency,rate}) picks the admission
 * controllers, {@code -Dexperiment.differentiation} (default {@code off,on}) the runs of each.
 * The series are in 100 ms buckets, one window of the concurrency limit and one round timeout
 * of the rate controller at this time scale, so the low class's recovery after the high class
 * leaves is read in windows: the first three buckets after it leaves whose low-class
 * completions reach half their mean before the spike, and, since the paper's clients pause after
 * a refusal (5 s, here 500 ms) and so bound how fast completions can come back, the first three
 * whose share of offered low-class requests admitted reaches half its share before the spike.
 */
class DifferentiationExperiment {

  private static final double TIME_SCALE = 0.1;
  static final int USERS_PER_CLASS = 60;

  /** How often {@code -Dexperiment.trace=true} reads the engine and the database. */
  private static final long TRACE_MILLIS = 20;

  static final String CLASS_RULES =
      "classes:\n"
          + "  low:\n    rank: 10\n    match: {header: X-User-Class=low}\n"
          + "  high:\n    rank: 20\n    match: {header: X-User-Class=high}\n";

  @Test
  void twoUserClasses() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 90);
    double highFrom = seconds / 3.0;
    double highTo = 2 * seconds / 3.0;
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
    String base =
        ExperimentShop.ADMISSION_ONLY
            + ExperimentShop.controller(TIME_SCALE)
            + ExperimentShop.targets(target, target);
    List<String> controllers =
        List.of(System.getProperty("experiment.controllers", "concurrency,rate").split(","));
    List<String> differentiation =
        List.of(System.getProperty("experiment.differentiation", "off,on").split(","));
    double window = 0.1;
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Experiment 5: two user classes (Welsh & Culler Figures 14 and 15)%n%nSample WAR in"
                    + " embedded Jetty 12, shop.timeScale %.2f, 1 database connection. %d low-priority"
                    + " closed-loop users throughout; %d high-priority users from %.0f s to %.0f s (header"
                    + " X-User-Class). Think %d ms, %d ms pause after a 503. Every page's p90 target %s;"
                    + " controller round timeout 1 s × time scale.%n%n"
                    + "| controller | differentiation | low: rejected %% while both active | high: rejected %%"
                    + " while both active | low p90 ms | high p90 ms (its time is the spike) | low completed"
                    + " /s before the spike | low in the first 3 windows after high leaves, %% of before |"
                    + " windows until 3 in a row reach 50 %% | low admitted %% of offered before the spike"
                    + " | low admitted share in the first 3 windows after, %% of before | windows until"
                    + " 3 in a row reach 50 %% of the share |%n|---|---|---|---|---|---|---|---|---|---|---|---|%n",
                TIME_SCALE,
                USERS_PER_CLASS,
                USERS_PER_CLASS,
                highFrom,
                highTo,
                users.meanThinkTime().toMillis(),
                users.rejectionPause().toMillis(),
                target));
    StringBuilder runs = new StringBuilder();
    for (String controller : controllers) {
      for (String mode : differentiation) {
        boolean on = mode.trim().equals("on");
        String name = controller + ", differentiation " + (on ? "on" : "off");
        String load = ExperimentShop.load();
        String yaml = base + "admission: {controller: " + controller.trim() + "}\n";
        boolean traced = Boolean.getBoolean("experiment.trace");
        ServerRequestLog log = new ServerRequestLog();
        try (ExperimentShop shop =
            ExperimentShop.start(
                "classes-" + controller.trim() + "-" + (on ? "on" : "off"),
                TIME_SCALE,
                1,
                on ? yaml + CLASS_RULES : yaml,
                2048,
                traced ? ContainerHooks.NONE.withRequestLog(log) : ContainerHooks.NONE)) {
          log.clear();
          ClassTrace trace =
              traced ? ClassTrace.start(shop.container.servletContext(), TRACE_MILLIS) : null;
          RunResult r =
              new ClosedLoopUsers(shop.client, model, users, shop.gauge)
                  .run(
                      List.of(
                          new ClosedLoopUsers.Group(
                              "low",
                              StepSchedule.constant(USERS_PER_CLASS),
                              Map.of("X-User-Class", "low")),
                          new ClosedLoopUsers.Group(
                              "high",
                              StepSchedule.spike(0, USERS_PER_CLASS, highFrom, highTo),
                              Map.of("X-User-Class", "high"))),
                      Duration.ofSeconds(seconds),
                      Duration.ofMillis(100),
                      5L);
          String prefix = "classes-" + controller.trim() + "-" + (on ? "on" : "off");
          RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
          writeGroupCsv(ExperimentShop.OUT.resolve(prefix + "-classes.csv"), r);
          if (trace != null) {
            trace.close();
            trace.writeCsv(
                ExperimentShop.OUT.resolve(prefix + "-trace.csv"), List.of("low", "high"));
            ServerRequestLog.writeCsv(
                ExperimentShop.OUT.resolve(prefix + "-server-log.csv"), log.entries());
          }
          List<Charts.Line> rejected = new ArrayList<>();
          List<Charts.Line> p90 = new ArrayList<>();
          double[] during = new double[2];
          double[] groupP90 = new double[2];
          int i = 0;
          for (String group : List.of("low", "high")) {
            List<RunResult.SeriesPoint> s = r.groupSeries().getOrDefault(group, List.of());
            List<Double> t = s.stream().map(RunResult.SeriesPoint::seconds).toList();
            rejected.add(
                new Charts.Line(
                    group, t, s.stream().map(RunResult.SeriesPoint::rejectedFraction).toList()));
            p90.add(
                new Charts.Line(
                    group, t, s.stream().map(RunResult.SeriesPoint::p90Millis).toList()));
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
          Charts.lines(
              ExperimentShop.OUT.resolve(prefix + "-rejected.png"),
              name + ": fraction rejected per user class",
              "time (s)",
              "fraction",
              rejected,
              false);
          Charts.lines(
              ExperimentShop.OUT.resolve(prefix + "-p90.png"),
              name + ": p90 per user class",
              "time (s)",
              "p90 (ms)",
              p90,
              true);
          double[] recovery =
              recovery(r.groupSeries().getOrDefault("low", List.of()), highFrom, highTo, window);
          double[] share =
              admittedShare(r.groupSeries().getOrDefault("low", List.of()), highFrom, highTo);
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %.1f | %.1f | %.0f | %.0f | %.1f | %.0f | %s | %.0f | %.0f | %s |%n",
                  controller.trim(),
                  on ? "on" : "off",
                  during[0],
                  during[1],
                  groupP90[0],
                  groupP90[1],
                  recovery[0],
                  recovery[1],
                  recovery[2] < 0 ? "never" : String.format(Locale.ROOT, "%.0f", recovery[2]),
                  share[0],
                  share[1],
                  share[2] < 0 ? "never" : String.format(Locale.ROOT, "%.0f", share[2])));
          runs.append(
              String.format(
                  Locale.ROOT,
                  "## %s (load average at start %s)%n%n%s%n%n%s%n"
                      + "%s%n![](%s-rejected.png)%n![](%s-p90.png)%n%n",
                  name,
                  load,
                  RunReport.summary(r),
                  RunReport.perGroup(r),
                  RunReport.perType(r),
                  prefix,
                  prefix));
          System.out.println(prefix + ": " + RunReport.summary(r) + " " + r.groups().keySet());
        }
      }
    }
    md.append("\nPaper: off 55.5 % (low) / 57.6 % (high); on 87.9 % (low) / 48.8 % (high).\n\n")
        .append(runs);
    Files.writeString(ExperimentShop.OUT.resolve("classes.md"), md.toString());
  }

  /**
   * Each user class's series in the run's buckets: completed, refused, timed out and the p90 of
   * the completed, one row per bucket and class.
   */
  static void writeGroupCsv(Path file, RunResult r) throws IOException {
    StringBuilder csv = new StringBuilder("seconds,class,completed,rejected,timed_out,p90_ms\n");
    for (Map.Entry<String, List<RunResult.SeriesPoint>> e : r.groupSeries().entrySet()) {
      for (RunResult.SeriesPoint p : e.getValue()) {
        csv.append(
            String.format(
                Locale.ROOT,
                "%.2f,%s,%d,%d,%d,%s%n",
                p.seconds(),
                e.getKey(),
                p.completed(),
                p.rejected(),
                p.timedOut(),
                Double.isNaN(p.p90Millis())
                    ? ""
                    : String.format(Locale.ROOT, "%.2f", p.p90Millis())));
      }
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, csv);
  }

  /**
   * The low class's recovery as the share of its offered requests that the server admitted, which
   * the clients' own pause after a refusal does not bound (a refused user of the paper's client
   * waits 5 s, here 500 ms, five windows, before it tries again, so the admitted count comes back
   * only as the users do, whatever the controller). Returns the admitted share (completed over
   * completed, refused and timed out) from 5 s to {@code highFrom} in per cent, the share over
   * the first three windows from {@code highTo} as a percentage of it, and how many windows
   * after {@code highTo} the first three windows in a row begin whose share reaches half of it
   * (−1: never). Windows without an ended request of the class count as not reaching it.
   */
  static double[] admittedShare(List<RunResult.SeriesPoint> low, double highFrom, double highTo) {
    long admittedBefore = 0;
    long endedBefore = 0;
    for (RunResult.SeriesPoint p : low) {
      if (p.seconds() > 5 && p.seconds() <= highFrom) {
        admittedBefore += p.completed();
        endedBefore += ended(p);
      }
    }
    double before = endedBefore == 0 ? Double.NaN : (double) admittedBefore / endedBefore;
    List<RunResult.SeriesPoint> after =
        low.stream().filter(p -> p.seconds() > highTo + 1e-9).toList();
    long admitted = 0;
    long ended = 0;
    for (int i = 0; i < Math.min(3, after.size()); i++) {
      admitted += after.get(i).completed();
      ended += ended(after.get(i));
    }
    double firstThree = ended == 0 ? 0 : 100 * ((double) admitted / ended) / before;
    int reached = -1;
    for (int k = 0; k + 3 <= after.size() && reached < 0; k++) {
      boolean all = true;
      for (int i = k; i < k + 3 && all; i++) {
        RunResult.SeriesPoint p = after.get(i);
        all = ended(p) > 0 && (double) p.completed() / ended(p) >= 0.5 * before;
      }
      reached = all ? k : -1;
    }
    return new double[] {100 * before, firstThree, reached};
  }

  private static long ended(RunResult.SeriesPoint p) {
    return p.completed() + p.rejected() + p.timedOut();
  }

  /**
   * The low class's recovery: its completions per second from 5 s to {@code highFrom}, its
   * completions in the first three windows from {@code highTo} as a percentage of that, and
   * how many windows after {@code highTo} the first three windows in a row begin that complete
   * at least half of it (−1: never).
   */
  static double[] recovery(
      List<RunResult.SeriesPoint> low, double highFrom, double highTo, double window) {
    double before = 0;
    int beforeBuckets = 0;
    for (RunResult.SeriesPoint p : low) {
      if (p.seconds() > 5 && p.seconds() <= highFrom) {
        before += p.completed();
        beforeBuckets++;
      }
    }
    double perBucket = beforeBuckets == 0 ? Double.NaN : before / beforeBuckets;
    List<RunResult.SeriesPoint> after =
        low.stream().filter(p -> p.seconds() > highTo + 1e-9).toList();
    double firstThree = 0;
    for (int i = 0; i < Math.min(3, after.size()); i++) {
      firstThree += after.get(i).completed();
    }
    int reached = -1;
    for (int k = 0; k + 3 <= after.size(); k++) {
      long sum = 0;
      for (int i = k; i < k + 3; i++) {
        sum += after.get(i).completed();
      }
      if (sum >= 1.5 * perBucket) {
        reached = k;
        break;
      }
    }
    return new double[] {perBucket / window, 100 * firstThree / (3 * perBucket), reached};
  }
}
