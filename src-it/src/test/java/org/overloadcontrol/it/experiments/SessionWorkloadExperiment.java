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
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 10: every guard on the same session workload at 1.4× the shop's capacity, with
 * impatient users who leave at their first refusal: purchases completed without a refusal (and
 * per minute) against the buyers offered (sessions whose walk reached confirm: the most any
 * guard could complete), goodput over capacity, refusals at entry and mid-session, and each page's
 * p50 / p90 / p99 from the server-side request log against its target, from 5 s on.
 *
 * <p>{@code -Dexperiment.seconds} sets the run's length (default 60),
 * {@code -Dexperiment.multiples} the loads as multiples of capacity (default 1.4; e.g.
 * {@code 1,1.4,2,4}),
 * {@code -Dexperiment.variants} which guards run (default all), {@code -Dexperiment.users}
 * whether users leave at the first refusal (default), retry once, or stay (take a refusal as
 * the page's answer and walk on, as httperf's sessions do; then the orders the shop placed,
 * counted from the server-side log, are the purchases),
 * {@code -Dexperiment.seed} the workload's random seed (default 42; another seed makes a repeat
 * an independent sample), and {@code -Dexperiment.baseline=true} runs {@code none} at 1× first,
 * in the same invocation, and reports every run's orders per minute over it.
 */
class SessionWorkloadExperiment {

  private static final double TIME_SCALE = 0.1;
  private static final double SETTLE_SECONDS = 5;

  /**
   * The buyers whose first page got through against those to expect from the sessions
   * admitted, and how many spreads of that draw apart: a guard that admits sessions blind to
   * who will buy (all start at home) owes the run its admitted sessions, not its luck.
   */
  static String draw(RunResult r) {
    double expected = r.buyersExpected();
    double spread = r.buyersSpread();
    return String.format(
        Locale.ROOT,
        "%d / %.1f (%+.1f)",
        r.buyersAdmitted(),
        expected,
        spread == 0 ? 0.0 : (r.buyersAdmitted() - expected) / spread);
  }

  @Test
  void atTheGivenMultiplesOfCapacity() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    SessionModel model = SessionModel.calibrated();
    double capacity = ExperimentShop.capacity(model, TIME_SCALE, 1);
    UserBehaviour users =
        UserBehaviour.paper()
            .scaled(5.6 / capacity)
            .withRefusalResponse(GuardedRun.refusalResponse());
    List<Double> multiples = new ArrayList<>();
    for (String m : System.getProperty("experiment.multiples", "1.4").split(",")) {
      multiples.add(Double.parseDouble(m.trim()));
    }
    List<Variant> variants = Variant.selected(TIME_SCALE, 1);
    long seed = Long.getLong("experiment.seed", 42L);
    double baseline = Double.NaN;
    if (Boolean.getBoolean("experiment.baseline")) {
      Variant none = Variant.all(TIME_SCALE, 1).get(0);
      GuardedRun base =
          GuardedRun.run(
              "session",
              none,
              TIME_SCALE,
              1,
              model,
              users,
              StepSchedule.constant(capacity / model.requestsPerSession()),
              Duration.ofSeconds(seconds),
              seed);
      baseline = base.window(SETTLE_SECONDS, seconds).ordersPerMinute();
      System.out.println(
          "session baseline 1.0x none: "
              + base.run().purchasesWithoutRefusal()
              + " / "
              + base.run().buyers()
              + " buyers; "
              + RunReport.summary(base.run()));
    }
    StringBuilder summary =
        new StringBuilder(
            "| load | variant | purchases without refusal / buyers | orders placed (server log)"
                + " | sessions refused at entry / mid-session | mid-session % of admitted"
                + " | sessions admitted | buyers among them / expected (z)"
                + " | orders/min ÷ 1× none | "
                + GuardedRun.Window.summaryHeader()
                + "\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    if (!Double.isNaN(baseline)) {
      summary.insert(
          0,
          String.format(
              Locale.ROOT,
              "Orders per minute at 1× without a guard" + " (`none`, this invocation): %.1f%n%n",
              baseline));
    }
    StringBuilder pages =
        new StringBuilder(
            GuardedRun.Window.pageHeader("load | variant | ")
                + "\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    StringBuilder runs = new StringBuilder();
    Map<String, List<Double>> orders = new LinkedHashMap<>();
    Map<String, List<Double>> placed = new LinkedHashMap<>();
    Map<String, List<Double>> p90 = new LinkedHashMap<>();
    List<String> pageNames = ShopRequest.PAGES.stream().map(ShopRequest::endpoint).toList();
    for (double multiple : multiples) {
      StepSchedule sessions =
          StepSchedule.constant(multiple * capacity / model.requestsPerSession());
      String at = String.format(Locale.ROOT, "%.1fx", multiple);
      for (Variant v : variants) {
        String load = ExperimentShop.load();
        GuardedRun run =
            GuardedRun.run(
                "session",
                v,
                TIME_SCALE,
                1,
                model,
                users,
                sessions,
                Duration.ofSeconds(seconds),
                seed);
        GuardedRun.Window win = run.window(SETTLE_SECONDS, seconds);
        long admitted = run.run().sessionsAdmitted();
        summary.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d / %d | %d | %d / %d | %.1f | %d | %s | %s | %s%n",
                at,
                v.name(),
                run.run().purchasesWithoutRefusal(),
                run.run().buyers(),
                run.ordersPlaced(),
                run.run().sessionsRefusedAtEntry(),
                run.run().sessionsRefusedMidSession(),
                admitted == 0 ? 0.0 : 100.0 * run.run().sessionsRefusedMidSession() / admitted,
                admitted,
                draw(run.run()),
                Double.isNaN(baseline)
                    ? "-"
                    : String.format(Locale.ROOT, "%.2f", win.ordersPerMinute() / baseline),
                win.summaryCells()));
        win.pageRows(at + " | " + v.name() + " | ").forEach(r -> pages.append(r).append('\n'));
        orders
            .computeIfAbsent(v.name(), k -> new ArrayList<>())
            .add(Math.round(win.ordersPerMinute() * 10) / 10.0);
        placed.computeIfAbsent(v.name(), k -> new ArrayList<>()).add((double) run.ordersPlaced());
        if (multiple == multiples.get(multiples.size() - 1)) {
          List<Double> ratios = new ArrayList<>();
          for (ShopRequest r : ShopRequest.PAGES) {
            double x = win.p90OverTarget(r);
            ratios.add(Double.isNaN(x) ? 0 : Math.round(x * 100) / 100.0);
          }
          p90.put(v.name(), ratios);
        }
        RunReport.writeCsv(
            ExperimentShop.OUT.resolve("session-" + at + "-" + v.name() + ".csv"), run.run());
        runs.append(
            String.format(
                Locale.ROOT,
                "### %s %s: %s (load average at start %s)%n%n" + "%s%n%n%s%n",
                at,
                v.name(),
                v.description(),
                load,
                RunReport.summary(run.run()),
                RunReport.perType(run.run())));
        System.out.println("session " + at + " " + v.name() + ": " + RunReport.summary(run.run()));
      }
    }
    List<String> loads =
        multiples.stream().map(m -> String.format(Locale.ROOT, "%.1fx", m)).toList();
    Charts.bars(
        ExperimentShop.OUT.resolve("session-orders.png"),
        "Orders per minute (purchases without a refusal)",
        "orders / min",
        loads,
        orders);
    Charts.bars(
        ExperimentShop.OUT.resolve("session-placed.png"),
        "Orders the shop placed over the run (server-side log; users: " + users.onRefusal() + ")",
        "orders",
        loads,
        placed);
    Charts.bars(
        ExperimentShop.OUT.resolve("session-p90.png"),
        "Each page's p90 / target at "
            + loads.get(loads.size() - 1)
            + " (server-side log; 0 = none served)",
        "p90 / target",
        pageNames,
        p90);
    String md =
        "# Experiment 10: the guards on one session workload at "
            + loads
            + " capacity\n\n"
            + String.format(
                Locale.ROOT,
                "Sample WAR in embedded Jetty 12, shop.timeScale %.2f,"
                    + " 1 database connection: nominal capacity C = %.1f pages/s. LIFO-Pri sessions at"
                    + " %s × C for %d s, impatient users (timeout %d ms + Exp(%d ms), p = 0.4, M = 5; on"
                    + " a refusal: %s); measured from %.0f s to the end, from the server-side request"
                    + " log.%n%n",
                TIME_SCALE,
                capacity,
                multiples,
                seconds,
                users.fixedTimeout().toMillis(),
                users.meanThinkTimeout().toMillis(),
                users.onRefusal(),
                SETTLE_SECONDS)
            + OverloadSweepExperiment.variantList(variants)
            + "\n"
            + summary
            + "\n![](session-orders.png)\n![](session-placed.png)\n![](session-p90.png)\n\n## Pages\n\n"
            + pages
            + "\n## Runs\n\n"
            + runs;
    Files.writeString(ExperimentShop.OUT.resolve("session.md"), md);
    System.out.println(summary);
  }
}
