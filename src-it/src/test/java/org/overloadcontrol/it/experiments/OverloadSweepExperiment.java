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
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;

/**
 * Experiment 7: an overload sweep. The LIFO-Pri session workload with impatient users, offered
 * in steps of 1×, 1.4×, 2×, 4× and 10× the shop's capacity in one run per {@link Variant} (our
 * filter in several configurations, no guard, and the peers: Jetty's {@code QoSHandler},
 * Netflix concurrency-limits with Vegas and Gradient2), so each guard must follow the load up.
 * Per step, from 5 s after it starts to its end: goodput as a fraction of capacity, purchases
 * without a refusal per minute, refusals, responses completed for users who had left, and each
 * page's p50 / p90 / p99 from the server-side request log against its target.
 *
 * <p>{@code -Dexperiment.seconds} sets each step's length (default 30),
 * {@code -Dexperiment.variants} which guards run (default all), {@code -Dexperiment.users}
 * whether users leave at the first refusal (default) or retry once,
 * {@code -Dexperiment.multiples} the steps (default {@code 1,1.4,2,4,10}),
 * {@code -Dexperiment.shop} and {@code -Dshop.container} which shop and container
 * ({@link ExperimentShop#form()}).
 */
class OverloadSweepExperiment {

  private static final double TIME_SCALE = 0.1;

  /** The steps, as multiples of capacity; {@code -Dexperiment.multiples} (comma list). */
  private static final double[] MULTIPLES = multiples("1,1.4,2,4,10");

  /** Each step's first seconds are left out: the guard's time to follow the step. */
  private static final double SETTLE_SECONDS = 5;

  @Test
  void sweep() throws Exception {
    int step = ExperimentShop.seconds("experiment.seconds", 30);
    SessionModel model = SessionModel.calibrated();
    double capacity = ExperimentShop.capacity(model, TIME_SCALE, 1);
    UserBehaviour users =
        UserBehaviour.paper()
            .scaled(5.6 / capacity)
            .withRefusalResponse(GuardedRun.refusalResponse());
    StepSchedule sessions = StepSchedule.constant(rate(MULTIPLES[0], capacity, model));
    for (int i = 1; i < MULTIPLES.length; i++) {
      sessions = sessions.then(i * step, rate(MULTIPLES[i], capacity, model));
    }
    List<Variant> variants = Variant.selected(TIME_SCALE, 1);
    StringBuilder summary =
        new StringBuilder(
            "| variant | offered × C | "
                + GuardedRun.Window.summaryHeader()
                + "\n|---|---|---|---|---|---|---|---|---|\n");
    StringBuilder pages =
        new StringBuilder(
            GuardedRun.Window.pageHeader("variant | × C | ")
                + "\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    StringBuilder runs = new StringBuilder();
    List<Double> xs = new ArrayList<>();
    for (double m : MULTIPLES) {
      xs.add(m);
    }
    Map<String, List<Double>> goodput = new LinkedHashMap<>();
    Map<String, List<Double>> worstP90 = new LinkedHashMap<>();
    Map<String, List<Double>> orders = new LinkedHashMap<>();
    for (Variant v : variants) {
      String load = ExperimentShop.load();
      GuardedRun run =
          GuardedRun.run(
              "sweep",
              v,
              TIME_SCALE,
              1,
              model,
              users,
              sessions,
              Duration.ofSeconds((long) step * MULTIPLES.length),
              7L);
      List<Double> g = new ArrayList<>();
      List<Double> w = new ArrayList<>();
      List<Double> o = new ArrayList<>();
      for (int i = 0; i < MULTIPLES.length; i++) {
        GuardedRun.Window win = run.window(i * step + SETTLE_SECONDS, (i + 1) * step);
        String x = String.format(Locale.ROOT, "%.1f", MULTIPLES[i]);
        summary
            .append("| ")
            .append(v.name())
            .append(" | ")
            .append(x)
            .append(" | ")
            .append(win.summaryCells())
            .append('\n');
        win.pageRows(v.name() + " | " + x + " | ").forEach(r -> pages.append(r).append('\n'));
        g.add(win.goodputOverCapacity());
        w.add(win.worstP90OverTarget());
        o.add(win.ordersPerMinute());
      }
      goodput.put(v.name(), g);
      worstP90.put(v.name(), w);
      orders.put(v.name(), o);
      RunReport.writeCsv(ExperimentShop.OUT.resolve("sweep-" + v.name() + ".csv"), run.run());
      runs.append(
          String.format(
              Locale.ROOT,
              "### %s: %s (load average at start %s)%n%n%s%n%n%s%n",
              v.name(),
              v.description(),
              load,
              RunReport.summary(run.run()),
              RunReport.perType(run.run())));
      System.out.println("sweep " + v.name() + ": " + RunReport.summary(run.run()));
    }
    plot("sweep-goodput.png", "Goodput vs offered load", "goodput / capacity", xs, goodput, false);
    plot(
        "sweep-p90.png",
        "Worst page p90 / target vs offered load (server-side log)",
        "p90 / target",
        xs,
        worstP90,
        true);
    plot(
        "sweep-orders.png",
        "Orders per minute (users leave at the first refusal)",
        "orders / min",
        xs,
        orders,
        false);
    String md =
        "# Experiment 7: overload sweep\n\n"
            + String.format(
                Locale.ROOT,
                "%s, shop.timeScale %.2f, 1 database connection: nominal"
                    + " capacity C = %.1f pages/s. LIFO-Pri sessions, impatient users (timeout %d ms +"
                    + " Exp(%d ms), p = 0.4, M = 5; on a refusal: %s). Steps of %d s at %s"
                    + " × C in one run per variant; each step measured from %.0f s after it starts to its"
                    + " end, from the server-side request log (arrival at the container to completion)."
                    + " Targets: browsing pages %d ms, transaction pages %d ms.%n%n",
                ExperimentShop.describe(),
                TIME_SCALE,
                capacity,
                users.fixedTimeout().toMillis(),
                users.meanThinkTimeout().toMillis(),
                users.onRefusal(),
                step,
                String.join(
                    " / ",
                    java.util.Arrays.stream(MULTIPLES)
                        .mapToObj(m -> String.format(Locale.ROOT, "%s", m))
                        .toList()),
                SETTLE_SECONDS,
                Variant.target(org.overloadcontrol.it.load.ShopRequest.HOME, TIME_SCALE).toMillis(),
                Variant.target(org.overloadcontrol.it.load.ShopRequest.CONFIRM, TIME_SCALE)
                    .toMillis())
            + variantList(variants)
            + "\n"
            + summary
            + "\n![](sweep-goodput.png)\n![](sweep-p90.png)\n![](sweep-orders.png)\n\n"
            + "## Pages\n\n"
            + pages
            + "\n## Runs\n\n"
            + runs;
    Files.writeString(ExperimentShop.OUT.resolve("sweep.md"), md);
    System.out.println(summary);
  }

  private static double[] multiples(String defaults) {
    String list = System.getProperty("experiment.multiples", "").trim();
    return java.util.Arrays.stream((list.isEmpty() ? defaults : list).split(","))
        .mapToDouble(x -> Double.parseDouble(x.trim()))
        .toArray();
  }

  static String variantList(List<Variant> variants) {
    StringBuilder b = new StringBuilder();
    variants.forEach(
        v -> b.append("- `").append(v.name()).append("`: ").append(v.description()).append('\n'));
    return b.toString();
  }

  private static double rate(double multiple, double capacity, SessionModel model) {
    return multiple * capacity / model.requestsPerSession();
  }

  private static void plot(
      String file,
      String title,
      String yLabel,
      List<Double> xs,
      Map<String, List<Double>> series,
      boolean logY)
      throws java.io.IOException {
    List<Charts.Line> lines = new ArrayList<>();
    series.forEach((name, ys) -> lines.add(new Charts.Line(name, xs, ys)));
    Charts.lines(
        ExperimentShop.OUT.resolve(file), title, "offered load (× capacity)", yLabel, lines, logY);
  }
}
