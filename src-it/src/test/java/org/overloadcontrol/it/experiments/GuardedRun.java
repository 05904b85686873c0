package org.overloadcontrol.it.experiments;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;
import org.overloadcontrol.it.serverlog.PageStats;
import org.overloadcontrol.it.serverlog.ServedRequest;
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.overloadcontrol.it.support.ContainerHooks;

/**
 * One load run against the shop under one {@link Variant}: what the load generator saw and
 * what the server-side request log recorded, with the figures the peer experiments report for a
 * window of it (goodput, orders per minute, each page's percentiles against its target).
 *
 * @param variant the guard
 * @param run the load generator's result
 * @param log every request the container logged during the run (calibration excluded)
 * @param startNanos the run's start ({@link RunResult}'s time zero)
 * @param timeScale the shop's time scale (for the targets and the pages' database time)
 * @param dbConnections the shop's database connections: its capacity
 */
record GuardedRun(
    Variant variant,
    RunResult run,
    List<ServedRequest> log,
    long startNanos,
    double timeScale,
    int dbConnections) {

  /**
   * Starts the shop under {@code variant} with a server-side request log, runs the session
   * workload {@code sessionsPerSecond} for {@code duration} (then lets the sessions under way
   * finish for up to 15 s), writes the server log as {@code OUT/name-variant-server-log.csv},
   * and returns both views of the run.
   */
  static GuardedRun run(
      String name,
      Variant variant,
      double timeScale,
      int dbConnections,
      SessionModel model,
      UserBehaviour users,
      StepSchedule sessionsPerSecond,
      Duration duration,
      long seed)
      throws Exception {
    ServerRequestLog log = new ServerRequestLog();
    ContainerHooks hooks = variant.guard().apply(ContainerHooks.NONE.withRequestLog(log));
    try (ExperimentShop shop =
        ExperimentShop.start(
            name + "-" + variant.name(),
            timeScale,
            dbConnections,
            variant.overloadYaml(),
            2048,
            hooks)) {
      log.clear();
      long start = System.nanoTime();
      SessionTrace trace = SessionTrace.startIfAsked(shop.container.servletContext(), start);
      RunResult r =
          new SessionLoadGenerator(shop.client, model, users, shop.gauge, Map.of())
              .run(
                  sessionsPerSecond, duration, Duration.ofSeconds(15), Duration.ofSeconds(1), seed);
      List<ServedRequest> entries = log.entries();
      if (trace != null) {
        trace.close();
        trace.write(
            ExperimentShop.OUT.resolve(name + "-" + variant.name() + "-trace.csv"),
            entries,
            timeScale);
      }
      ServerRequestLog.writeCsv(
          ExperimentShop.OUT.resolve(name + "-" + variant.name() + "-server-log.csv"), entries);
      return new GuardedRun(variant, r, entries, start, timeScale, dbConnections);
    }
  }

  /**
   * {@code -Dexperiment.users}: {@code leave} (default), {@code retry-once}, or {@code stay} (a
   * refusal is taken as the page's answer and the walk goes on, as httperf's sessions did).
   */
  static UserBehaviour.RefusalResponse refusalResponse() {
    String v = System.getProperty("experiment.users", "leave").trim();
    return switch (v) {
      case "", "leave" -> UserBehaviour.RefusalResponse.LEAVE;
      case "retry-once" -> UserBehaviour.RefusalResponse.RETRY_ONCE;
      case "stay" -> UserBehaviour.RefusalResponse.STAY;
      default ->
          throw new IllegalArgumentException(
              "experiment.users: 'leave', 'retry-once' or 'stay', was '" + v + "'");
    };
  }

  /**
   * Orders the shop placed over the whole run, from the server-side log: confirms it answered
   * with 200 to a user still there (a confirm whose checkout steps were refused gets 409, one
   * sent to a waiting room a redirect). The same count for every guard and every kind of user.
   */
  long ordersPlaced() {
    return log.stream()
        .filter(
            r ->
                r.status() == 200
                    && !r.userLeft()
                    && request(r.path()).filter(t -> t == ShopRequest.CONFIRM).isPresent())
        .count();
  }

  /** The shop's request type of a logged path (the shop is at {@code /shop}). */
  private static java.util.Optional<ShopRequest> request(String path) {
    return ShopRequest.fromPath(path.startsWith("/shop") ? path.substring(5) : path);
  }

  /** The figures of the window [{@code fromSeconds}, {@code toSeconds}) of the run. */
  Window window(double fromSeconds, double toSeconds) {
    long from = startNanos + Math.round(fromSeconds * 1e9);
    long to = startNanos + Math.round(toSeconds * 1e9);
    Map<String, PageStats> byName =
        PageStats.byPage(
            log, path -> request(path).map(ShopRequest::endpoint).orElse(null), from, to);
    Map<ShopRequest, PageStats> pages = new EnumMap<>(ShopRequest.class);
    for (ShopRequest r : ShopRequest.values()) {
      PageStats s = byName.get(r.endpoint());
      if (s != null) {
        pages.put(r, s);
      }
    }
    return new Window(this, fromSeconds, toSeconds, pages, byName.get("all"));
  }

  /**
   * The figures of one window.
   *
   * @param pages per request type (those that had requests)
   * @param all every shop request together
   */
  record Window(
      GuardedRun of,
      double fromSeconds,
      double toSeconds,
      Map<ShopRequest, PageStats> pages,
      PageStats all) {

    double seconds() {
      return toSeconds - fromSeconds;
    }

    /**
     * The useful work over the capacity: the database time of the pages served to users who
     * were still there (each page's service time × time scale), over the window's database
     * time (seconds × connections). Counting pages per second instead would flatter a guard
     * that serves mostly cheap pages (home costs 20 ms, payment 50 ms): under overload the
     * served mix is not the offered one.
     */
    double goodputOverCapacity() {
      double busyMillis = 0;
      for (ShopRequest r : ShopRequest.PAGES) {
        PageStats s = pages.get(r);
        busyMillis += s == null ? 0 : s.servedToPresent() * r.serviceMillis() * of.timeScale();
      }
      return busyMillis / 1000 / seconds() / of.dbConnections();
    }

    /** Pages with database work served to users still there, per second. */
    double pagesPerSecond() {
      long served = 0;
      for (ShopRequest r : ShopRequest.PAGES) {
        PageStats s = pages.get(r);
        served += s == null ? 0 : s.servedToPresent();
      }
      return served / seconds();
    }

    /** Purchases without a refusal before them, per minute, completed in the window. */
    double ordersPerMinute() {
      return of.run().ordersPerMinute(fromSeconds, toSeconds);
    }

    /** Refused requests as a share of all requests to the shop's pages. */
    double refusedShare() {
      return all.requests() == 0 ? 0 : (double) all.refused() / all.requests();
    }

    /** A page's p90 over its target; NaN without a target or without served requests. */
    double p90OverTarget(ShopRequest page) {
      Duration target = Variant.target(page, of.timeScale());
      PageStats s = pages.get(page);
      if (target == null || s == null) {
        return Double.NaN;
      }
      return s.percentileMillis(90) / (target.toNanos() / 1e6);
    }

    /** The largest p90 / target over the controlled pages that were served. */
    double worstP90OverTarget() {
      double worst = Double.NaN;
      for (ShopRequest r : ShopRequest.PAGES) {
        double x = p90OverTarget(r);
        if (!Double.isNaN(x) && (Double.isNaN(worst) || x > worst)) {
          worst = x;
        }
      }
      return worst;
    }

    /** The page with the largest p90 / target, or "–". */
    String worstPage() {
      String page = "–";
      double worst = Double.NaN;
      for (ShopRequest r : ShopRequest.PAGES) {
        double x = p90OverTarget(r);
        if (!Double.isNaN(x) && (Double.isNaN(worst) || x > worst)) {
          worst = x;
          page = r.endpoint();
        }
      }
      return page;
    }

    /** Controlled pages with a served request in the window, and how many of them held 1.1×. */
    int[] pagesWithinBound() {
      int held = 0;
      int seen = 0;
      for (ShopRequest r : ShopRequest.PAGES) {
        double x = p90OverTarget(r);
        if (!Double.isNaN(x)) {
          seen++;
          if (x <= 1.1) {
            held++;
          }
        }
      }
      return new int[] {held, seen};
    }

    /** One Markdown row of the summary table (after the caller's own first cells). */
    String summaryCells() {
      int[] bound = pagesWithinBound();
      return String.format(
          Locale.ROOT,
          "%.2f | %.1f | %.1f | %.1f | %d | %s (%s) | %d of %d |",
          goodputOverCapacity(),
          pagesPerSecond(),
          ordersPerMinute(),
          100 * refusedShare(),
          all.userLeft(),
          fmt2(worstP90OverTarget()),
          worstPage(),
          bound[0],
          bound[1]);
    }

    /** Header of {@link #summaryCells}. */
    static String summaryHeader() {
      return "goodput / C | pages/s | orders/min | refused % | responses after the user left"
          + " | worst p90 / target (page) | pages with p90 ≤ 1.1× target |";
    }

    /** Every page's row: target, served, refused, user left, p50 / p90 / p99, p90 / target. */
    List<String> pageRows(String prefix) {
      List<String> rows = new ArrayList<>();
      for (Map.Entry<ShopRequest, PageStats> e : pages.entrySet()) {
        PageStats s = e.getValue();
        Duration target = Variant.target(e.getKey(), of.timeScale());
        rows.add(
            String.format(
                Locale.ROOT,
                "| %s%s | %s | %d | %d | %d | %d | %s | %s | %s | %s |",
                prefix,
                e.getKey().endpoint(),
                target == null ? "–" : target.toMillis() + " ms",
                s.requests(),
                s.served(),
                s.refused(),
                s.userLeft(),
                fmt0(s.percentileMillis(50)),
                fmt0(s.percentileMillis(90)),
                fmt0(s.percentileMillis(99)),
                fmt2(p90OverTarget(e.getKey()))));
      }
      return rows;
    }

    static String pageHeader(String firstColumns) {
      return "| "
          + firstColumns
          + "page | target | requests | served | refused | user had left"
          + " | p50 ms | p90 ms | p99 ms | p90 / target |";
    }
  }

  static String fmt0(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f", v);
  }

  static String fmt2(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
  }
}
