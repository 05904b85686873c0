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
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;
import org.overloadcontrol.it.support.ContainerHooks;

/**
 * Experiment 1: LIFO-Pri Tables 4 and 5 (Singhmar et al. 2004, §3.2). The session workload at
 * ρ = 0.85, 1.4 and 2.0 against three queue schemes of the filter: SQ (one FIFO queue of 100),
 * 8Q-AF (eight queues, always FIFO; 50 per browsing and 25 per transaction queue) and
 * LIFO-Pri (the same eight queues, transactions first, browsing LIFO at overload).
 *
 * <p>Scaling: service times × {@code shop.timeScale} (0.1), one database connection and one
 * execution permit, so every waiting request waits in the filter's queues, in the scheme's
 * order. The users' patience is scaled so that it is worth as many service completions as in
 * the paper: its server served 5.6 requests/s against a mean patience of 20 s (112
 * completions); ours serves C requests/s, so every user time is multiplied by 5.6 / C.
 *
 * <p>Users leave at their first refusal (or retry once, {@code -Dexperiment.users=retry-once});
 * each run reports orders per minute: purchases without a refusal before them, per minute of
 * session arrivals. Beside the three schemes, the peers of {@code -Dexperiment.lifopri.peers}
 * (default {@code none,qos,ncl-vegas,ncl-gradient2}; see {@link Variant}) guard the same shop
 * with our filter switched off. {@code -Dexperiment.rhos} (e.g. {@code 1.4}) picks the loads.
 */
class LifoPriExperiment {

  private static final double TIME_SCALE = 0.1;
  private static final double PAPER_CAPACITY = 5.6;

  private static final Map<String, String> SCHEMES = new LinkedHashMap<>();

  static {
    SCHEMES.put("SQ", "  layout: single\n  order: fifo\n  singleCapacity: 100\n");
    SCHEMES.put("8Q-AF", "  layout: per-class\n  order: fifo\n");
    SCHEMES.put("LIFO-Pri", "  layout: per-class\n  order: lifo-at-overload\n");
  }

  static String yaml(String scheme) {
    return ExperimentShop.NO_VIRTUAL_QUEUE
        + "endpoints:\n"
        + "  home: {target: none}\n  browse: {target: none}\n  search: {target: none}\n"
        + "  details: {target: none}\n  login: {target: none}\n  shipping: {target: none}\n"
        + "  payment: {target: none}\n  confirm: {target: none}\n"
        // The shop's cart is a rank-0 browsing class of utility 1; LIFO-Pri would starve it,
        // and with it every purchase. Adding to the cart is the purchase's first step here.
        + "classes:\n  cart: {kind: transaction, utility: 3650}\n"
        + "queue:\n  permits: 1\n  maxWait: 60s\n  browsingCapacity: 50\n"
        + "  transactionCapacity: 25\n"
        + "  overload: {signal: queue-delay, window: 500ms, enterDelay: 50ms,"
        + " exitDelay: 10ms}\n"
        + SCHEMES.get(scheme);
  }

  @Test
  void tables4And5() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    double[] rhos =
        java.util.Arrays.stream(System.getProperty("experiment.rhos", "0.85,1.4,2.0").split(","))
            .mapToDouble(Double::parseDouble)
            .toArray();
    SessionModel model = SessionModel.calibrated();
    double capacity = ExperimentShop.capacity(model, TIME_SCALE, 1);
    double userScale = PAPER_CAPACITY / capacity;
    UserBehaviour users =
        UserBehaviour.paper().scaled(userScale).withRefusalResponse(GuardedRun.refusalResponse());
    Map<String, Variant> peers = new LinkedHashMap<>();
    String wanted =
        System.getProperty("experiment.lifopri.peers", "none,qos,ncl-vegas,ncl-gradient2").trim();
    for (String name : wanted.isEmpty() ? new String[0] : wanted.split(",")) {
      Variant v =
          Variant.all(TIME_SCALE, 1).stream()
              .filter(x -> x.name().equals(name.trim()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "experiment.lifopri.peers: unknown '" + name + "'"));
      peers.put(v.name(), v);
    }
    List<String> schemes = new ArrayList<>(SCHEMES.keySet());
    schemes.addAll(peers.keySet());
    StringBuilder md = new StringBuilder();
    String intro =
        "# Experiment 1: LIFO-Pri Tables 4 and 5\n\n"
            + String.format(
                Locale.ROOT,
                "Sample WAR in embedded Jetty 12, shop.timeScale %.2f,"
                    + " 1 database connection, queue.permits 1: capacity C = %.1f pages/s (mean service"
                    + " %.1f ms per request of the mix, %.2f requests per session). Users: timeout %d ms +"
                    + " Exp(%d ms), p = 0.4, M = 5, think time Exp(%d ms) (paper × 5.6/C = %.3f). %d s of"
                    + " session arrivals per run, then the sessions under way finish.%n%n",
                TIME_SCALE,
                capacity,
                model.meanServiceMillisPerRequest() * TIME_SCALE,
                model.requestsPerSession(),
                users.fixedTimeout().toMillis(),
                users.meanThinkTimeout().toMillis(),
                users.meanThinkTime().toMillis(),
                userScale,
                seconds);
    Map<Double, Map<String, RunResult>> all = new LinkedHashMap<>();
    StringBuilder orders =
        new StringBuilder(
            "| ρ | scheme | confirms | purchases without refusal"
                + " | orders / min | sessions refused at entry / mid-session | % completed |\n"
                + "|---|---|---|---|---|---|---|\n");
    for (double rho : rhos) {
      Map<String, RunResult> byScheme = new LinkedHashMap<>();
      for (String scheme : schemes) {
        String load = ExperimentShop.load();
        Variant peer = peers.get(scheme);
        try (ExperimentShop shop =
            peer == null
                ? ExperimentShop.start("lifopri-" + scheme, TIME_SCALE, 1, yaml(scheme), 1024)
                : ExperimentShop.start(
                    "lifopri-" + scheme,
                    TIME_SCALE,
                    1,
                    peer.overloadYaml(),
                    1024,
                    peer.guard().apply(ContainerHooks.NONE))) {
          SessionLoadGenerator generator =
              new SessionLoadGenerator(shop.client, model, users, shop.gauge, Map.of());
          double sessionRate = rho * capacity / model.requestsPerSession();
          RunResult r =
              generator.run(
                  StepSchedule.constant(sessionRate),
                  Duration.ofSeconds(seconds),
                  Duration.ofSeconds(30),
                  Duration.ofSeconds(1),
                  42L);
          byScheme.put(scheme, r);
          orders.append(
              String.format(
                  Locale.ROOT,
                  "| %.2f | %s | %d | %d | %.1f | %d / %d |" + " %.1f |%n",
                  rho,
                  scheme,
                  r.purchases(),
                  r.purchasesWithoutRefusal(),
                  r.purchasesWithoutRefusal() * 60.0 / seconds,
                  r.sessionsRefusedAtEntry(),
                  r.sessionsRefusedMidSession(),
                  RunReport.table5(r)[0]));
          String prefix = String.format(Locale.ROOT, "lifopri-rho%.2f-%s", rho, scheme);
          RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
          List<String> plots =
              RunReport.plotSeries(ExperimentShop.OUT, prefix, scheme + " at rho " + rho, r);
          md.append(
              String.format(
                  Locale.ROOT,
                  "### ρ = %.2f, %s (%.2f sessions/s; load" + " average at start %s)%n%n%s%n%n%s%n",
                  rho,
                  scheme,
                  sessionRate,
                  load,
                  RunReport.summary(r),
                  RunReport.perType(r)));
          plots.forEach(p -> md.append("![](").append(p).append(")\n"));
          md.append('\n');
          System.out.println(prefix + ": " + RunReport.summary(r));
        }
      }
      all.put(rho, byScheme);
    }
    StringBuilder tables = new StringBuilder();
    for (Map.Entry<Double, Map<String, RunResult>> e : all.entrySet()) {
      tables.append(
          String.format(
              Locale.ROOT,
              "## Table 4 layout, ρ = %.2f%n%n%s%n",
              e.getKey(),
              RunReport.table4(e.getValue())));
      tables.append(
          String.format(
              Locale.ROOT,
              "## Table 5 layout, ρ = %.2f%n%n%s%n",
              e.getKey(),
              RunReport.table5(e.getValue())));
    }
    // Figure: confirms completed and % completed per scheme and load.
    List<String> categories = new ArrayList<>();
    for (double rho : rhos) {
      categories.add("rho " + rho);
    }
    Map<String, List<Double>> confirms = new LinkedHashMap<>();
    Map<String, List<Double>> completed = new LinkedHashMap<>();
    for (String scheme : schemes) {
      confirms.put(
          scheme, all.values().stream().map(m -> (double) m.get(scheme).purchases()).toList());
      completed.put(
          scheme,
          all.values().stream()
              .map(m -> Math.round(RunReport.table5(m.get(scheme))[0] * 10) / 10.0)
              .toList());
    }
    Charts.bars(
        ExperimentShop.OUT.resolve("lifopri-confirms.png"),
        "Confirms completed (LIFO-Pri Table 4, Tr-4)",
        "confirms",
        categories,
        confirms);
    Charts.bars(
        ExperimentShop.OUT.resolve("lifopri-completed.png"),
        "Requests completed, % (LIFO-Pri Table 5)",
        "%",
        categories,
        completed);
    String report =
        intro
            + "## Orders per minute (purchases without a refusal before them,"
            + " per minute of session arrivals)\n\n"
            + orders
            + "\n"
            + tables
            + "![](lifopri-confirms.png)\n![](lifopri-completed.png)\n\n"
            + "## Runs\n\n"
            + md;
    Files.writeString(ExperimentShop.OUT.resolve("lifopri.md"), report);
    System.out.println(orders);
    System.out.println(tables);
  }
}
