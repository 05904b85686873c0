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
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 10: every guard on the same session workload at 1.4× the shop's capacity, with
 * impatient users who leave at their first refusal: purchases completed without a refusal (and
 * per minute), goodput over capacity, refusals at entry and mid-session, and each page's
 * p50 / p90 / p99 from the server-side request log against its target, from 5 s on.
 *
 * <p>{@code -Dexperiment.seconds} sets the run's length (default 60),
 * {@code -Dexperiment.variants} which guards run (default all), {@code -Dexperiment.users}
 * whether users leave at the first refusal (default) or retry once.
 */
class SessionWorkloadExperiment {

  private static final double TIME_SCALE = 0.1;
  private static final double MULTIPLE = 1.4;
  private static final double SETTLE_SECONDS = 5;

  @Test
  void atOnePointFourTimesCapacity() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    SessionModel model = SessionModel.calibrated();
    double capacity = ExperimentShop.capacity(model, TIME_SCALE, 1);
    UserBehaviour users = UserBehaviour.paper().scaled(5.6 / capacity)
        .withRefusalResponse(GuardedRun.refusalResponse());
    StepSchedule sessions = StepSchedule.constant(MULTIPLE * capacity
        / model.requestsPerSession());
    List<Variant> variants = Variant.selected(TIME_SCALE, 1);
    StringBuilder summary = new StringBuilder("| variant | purchases without refusal"
        + " | sessions refused at entry / mid-session | " + GuardedRun.Window.summaryHeader()
        + "\n|---|---|---|---|---|---|---|---|---|---|\n");
    StringBuilder pages = new StringBuilder(GuardedRun.Window.pageHeader("variant | ")
        + "\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    StringBuilder runs = new StringBuilder();
    Map<String, List<Double>> orders = new LinkedHashMap<>();
    Map<String, List<Double>> p90 = new LinkedHashMap<>();
    List<String> pageNames = ShopRequest.PAGES.stream().map(ShopRequest::endpoint).toList();
    for (Variant v : variants) {
      String load = ExperimentShop.load();
      GuardedRun run = GuardedRun.run("session", v, TIME_SCALE, 1, model, users, sessions,
          Duration.ofSeconds(seconds), 42L);
      GuardedRun.Window win = run.window(SETTLE_SECONDS, seconds);
      summary.append(String.format(Locale.ROOT, "| %s | %d | %d / %d | %s%n", v.name(),
          run.run().purchasesWithoutRefusal(), run.run().sessionsRefusedAtEntry(),
          run.run().sessionsRefusedMidSession(), win.summaryCells()));
      win.pageRows(v.name() + " | ").forEach(r -> pages.append(r).append('\n'));
      orders.put(v.name(), List.of(Math.round(win.ordersPerMinute() * 10) / 10.0));
      List<Double> ratios = new ArrayList<>();
      for (ShopRequest r : ShopRequest.PAGES) {
        double x = win.p90OverTarget(r);
        ratios.add(Double.isNaN(x) ? 0 : Math.round(x * 100) / 100.0);
      }
      p90.put(v.name(), ratios);
      RunReport.writeCsv(ExperimentShop.OUT.resolve("session-" + v.name() + ".csv"),
          run.run());
      runs.append(String.format(Locale.ROOT, "### %s: %s (load average at start %s)%n%n%s%n%n%s%n",
          v.name(), v.description(), load, RunReport.summary(run.run()),
          RunReport.perType(run.run())));
      System.out.println("session " + v.name() + ": " + RunReport.summary(run.run()));
    }
    Charts.bars(ExperimentShop.OUT.resolve("session-orders.png"),
        "Orders per minute at 1.4x capacity (users leave at the first refusal)", "orders / min",
        List.of("1.4x"), orders);
    Charts.bars(ExperimentShop.OUT.resolve("session-p90.png"),
        "Each page's p90 / target at 1.4x capacity (server-side log; 0 = none served)",
        "p90 / target", pageNames, p90);
    String md = "# Experiment 10: the guards on one session workload at 1.4× capacity\n\n"
        + String.format(Locale.ROOT, "Sample WAR in embedded Jetty 12, shop.timeScale %.2f,"
        + " 1 database connection: nominal capacity C = %.1f pages/s. LIFO-Pri sessions at"
        + " %.1f × C for %d s, impatient users (timeout %d ms + Exp(%d ms), p = 0.4, M = 5; on"
        + " a refusal: %s); measured from %.0f s to the end, from the server-side request"
        + " log.%n%n", TIME_SCALE, capacity, MULTIPLE, seconds, users.fixedTimeout().toMillis(),
        users.meanThinkTimeout().toMillis(), users.onRefusal(), SETTLE_SECONDS)
        + OverloadSweepExperiment.variantList(variants) + "\n" + summary
        + "\n![](session-orders.png)\n![](session-p90.png)\n\n## Pages\n\n" + pages
        + "\n## Runs\n\n" + runs;
    Files.writeString(ExperimentShop.OUT.resolve("session.md"), md);
    System.out.println(summary);
  }
}
