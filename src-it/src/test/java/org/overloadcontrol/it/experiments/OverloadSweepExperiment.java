package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
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
 * Experiment 7: an overload sweep. The LIFO-Pri session workload with impatient users at 0.5×
 * to 10× the shop's capacity, with the filter (per-endpoint admission control, Welsh & Culler
 * 2003 §3, targets scaled with the service times) and without it: goodput as a fraction of
 * capacity, and the p90 of completed requests.
 */
class OverloadSweepExperiment {

  private static final double TIME_SCALE = 0.1;
  private static final double[] MULTIPLES = {0.5, 1, 2, 4, 7, 10};

  static final String WITH_FILTER = ExperimentShop.ADMISSION_ONLY + "controller: {initialRate: 20, bucketDepth: 10}\n"
      + ExperimentShop.targets("200ms", "150ms");

  @Test
  void sweep() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 30);
    double warmup = seconds / 3.0;
    SessionModel model = SessionModel.calibrated();
    double capacity = ExperimentShop.capacity(model, TIME_SCALE, 1);
    UserBehaviour users = UserBehaviour.paper().scaled(5.6 / capacity);
    StringBuilder runs = new StringBuilder();
    StringBuilder table = new StringBuilder("| offered × C | filter | goodput (pages/s) | goodput"
        + " / C | p50 ms | p90 ms | p99 ms | rejected % | timed out % | purchases | load avg |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    List<Double> xs = new ArrayList<>();
    List<Double> goodOn = new ArrayList<>();
    List<Double> goodOff = new ArrayList<>();
    List<Double> p90On = new ArrayList<>();
    List<Double> p90Off = new ArrayList<>();
    double measured = Double.NaN;
    for (double m : MULTIPLES) {
      xs.add(m);
      for (boolean filter : new boolean[] {true, false}) {
        String load = ExperimentShop.load();
        try (ExperimentShop shop = ExperimentShop.start("sweep-" + (filter ? "on" : "off"),
            TIME_SCALE, 1, filter ? WITH_FILTER : "enabled: false\n", 2048)) {
          if (Double.isNaN(measured)) {
            measured = shop.measureCapacity(model, 9);
          }
          double sessionRate = m * capacity / model.requestsPerSession();
          RunResult r = new SessionLoadGenerator(shop.client, model, users, shop.gauge,
              Map.of()).run(StepSchedule.constant(sessionRate), Duration.ofSeconds(seconds),
              Duration.ofSeconds(15), Duration.ofSeconds(1), 7L);
          long pages = 0;
          for (RunResult.SeriesPoint p : r.seriesFrom(warmup)) {
            if (p.seconds() <= seconds) {
              pages += p.completed();
            }
          }
          long cart = r.types().get(ShopRequest.CART).completed();
          double goodput = pages / (seconds - warmup)
              * (1 - cart / (double) Math.max(1, r.total().completed()));
          RunResult.TypeCounts t = r.total();
          double ended = t.completed() + t.timedOut() + t.rejected() + t.failed();
          table.append(String.format(Locale.ROOT, "| %.1f | %s | %.1f | %.2f | %s | %s | %s |"
              + " %.1f | %.1f | %d | %s |%n", m, filter ? "on" : "off", goodput,
              goodput / capacity, fmt(t.percentileMillis(50)), fmt(t.percentileMillis(90)),
              fmt(t.percentileMillis(99)), 100 * (t.rejected() + t.failed()) / ended,
              100 * t.timedOut() / ended, r.purchases(), load));
          (filter ? goodOn : goodOff).add(goodput / capacity);
          (filter ? p90On : p90Off).add(t.percentileMillis(90));
          String prefix = String.format(Locale.ROOT, "sweep-%.1fx-%s", m, filter ? "on" : "off");
          RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
          runs.append(String.format(Locale.ROOT, "### %.1f × capacity, filter %s%n%n%s%n%n%s%n",
              m, filter ? "on" : "off", RunReport.summary(r), RunReport.perType(r)));
          System.out.println(prefix + ": " + RunReport.summary(r));
        }
      }
    }
    Charts.lines(ExperimentShop.OUT.resolve("sweep-goodput.png"),
        "Goodput vs offered load", "offered load (× capacity)", "goodput / capacity",
        List.of(new Charts.Line("with filter", xs, goodOn),
            new Charts.Line("without filter", xs, goodOff)), false);
    Charts.lines(ExperimentShop.OUT.resolve("sweep-p90.png"),
        "p90 of completed requests vs offered load", "offered load (× capacity)", "p90 (ms)",
        List.of(new Charts.Line("with filter", xs, p90On),
            new Charts.Line("without filter", xs, p90Off)), true);
    String md = "# Experiment 7: overload sweep\n\n" + String.format(Locale.ROOT,
        "Sample WAR in embedded Jetty 12, shop.timeScale %.2f, 1 database connection: nominal"
        + " capacity C = %.1f pages/s (measured with 8 closed-loop users: %.1f pages/s)."
        + " LIFO-Pri sessions, impatient users (timeout %d ms + Exp(%d ms), p = 0.4, M = 5)."
        + " %d s of arrivals per point, goodput counted after %.0f s. Filter on: admission"
        + " control only (targets 200 ms browsing, 150 ms transaction; initial rate 20/s per"
        + " endpoint); off: `enabled: false`.%n%n", TIME_SCALE, capacity, measured,
        users.fixedTimeout().toMillis(), users.meanThinkTimeout().toMillis(), seconds, warmup)
        + table + "\n![](sweep-goodput.png)\n![](sweep-p90.png)\n\n## Runs\n\n" + runs;
    Files.writeString(ExperimentShop.OUT.resolve("sweep.md"), md);
    System.out.println(table);
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f", v);
  }
}
