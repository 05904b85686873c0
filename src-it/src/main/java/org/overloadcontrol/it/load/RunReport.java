package org.overloadcontrol.it.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes what a run measured: LIFO-Pri's Table 4 and Table 5 layouts, a per-type table with
 * response-time percentiles, the time series as CSV and standard plots of the series (p90,
 * admission rate, rejected fraction, queue length).
 */
public final class RunReport {

  private static final List<ShopRequest> TRANSACTIONS =
      List.of(
          ShopRequest.CART,
          ShopRequest.LOGIN,
          ShopRequest.SHIPPING,
          ShopRequest.PAYMENT,
          ShopRequest.CONFIRM);

  private RunReport() {}

  /** Table 4's layout: per scheme, generated / completed / timed out / dropped. */
  public static String table4(Map<String, RunResult> bySchemes) {
    StringBuilder md = new StringBuilder();
    md.append(
        "| case | requests | browsing | cart | Tr-1 login | Tr-2 shipping | Tr-3 payment"
            + " | Tr-4 confirm |\n|---|---|---|---|---|---|---|---|\n");
    bySchemes.forEach(
        (scheme, r) -> {
          List<RunResult.TypeCounts> cols = new ArrayList<>();
          cols.add(r.browsing());
          TRANSACTIONS.forEach(t -> cols.add(r.types().get(t)));
          row(md, scheme, "generated", cols, RunResult.TypeCounts::generated);
          row(md, "", "completed", cols, RunResult.TypeCounts::completed);
          row(md, "", "timed out", cols, RunResult.TypeCounts::timedOut);
          row(md, "", "dropped (503)", cols, RunResult.TypeCounts::rejected);
          row(md, "", "other errors", cols, RunResult.TypeCounts::failed);
        });
    return md.toString();
  }

  private static void row(
      StringBuilder md,
      String scheme,
      String label,
      List<RunResult.TypeCounts> cols,
      java.util.function.ToLongFunction<RunResult.TypeCounts> f) {
    md.append("| ").append(scheme).append(" | ").append(label);
    for (RunResult.TypeCounts c : cols) {
      md.append(" | ").append(f.applyAsLong(c));
    }
    md.append(" |\n");
  }

  /** Table 5's percentages of everything the sessions would have asked for. */
  public static double[] table5(RunResult r) {
    RunResult.TypeCounts t = r.total();
    double all = t.generated() + t.notGenerated();
    if (all == 0) {
      return new double[4];
    }
    return new double[] {
      100 * t.completed() / all,
      100 * t.timedOut() / all,
      100 * (t.rejected() + t.failed()) / all,
      100 * t.notGenerated() / all
    };
  }

  /** Table 5's layout for several schemes. */
  public static String table5(Map<String, RunResult> bySchemes) {
    StringBuilder md = new StringBuilder("| % |");
    bySchemes.keySet().forEach(k -> md.append(' ').append(k).append(" |"));
    md.append("\n|---|").append("---|".repeat(bySchemes.size())).append('\n');
    String[] labels = {"completed", "timed out", "dropped", "not generated"};
    for (int i = 0; i < labels.length; i++) {
      md.append("| ").append(labels[i]).append(" |");
      for (RunResult r : bySchemes.values()) {
        md.append(' ').append(f1(table5(r)[i])).append(" |");
      }
      md.append('\n');
    }
    return md.toString();
  }

  /** Every request type: counts, rejected fraction and response-time percentiles. */
  public static String perType(RunResult r) {
    StringBuilder md =
        new StringBuilder(
            "| type | generated | completed | timed out | rejected"
                + " | other | not generated | rejected % | p50 ms | p90 ms | p99 ms |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (ShopRequest t : ShopRequest.values()) {
      typeRow(md, t.endpoint(), r.types().get(t));
    }
    typeRow(md, "**all**", r.total());
    return md.toString();
  }

  /** Every user group: counts, rejected fraction and response-time percentiles. */
  public static String perGroup(RunResult r) {
    StringBuilder md =
        new StringBuilder(
            "| group | ended | completed | timed out | rejected"
                + " | other | – | rejected % | p50 ms | p90 ms | p99 ms |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    r.groups().forEach((g, c) -> typeRow(md, g, c));
    return md.toString();
  }

  private static void typeRow(StringBuilder md, String name, RunResult.TypeCounts c) {
    md.append(
        String.format(
            Locale.ROOT,
            "| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s" + " |%n",
            name,
            c.generated(),
            c.completed(),
            c.timedOut(),
            c.rejected(),
            c.failed(),
            c.notGenerated(),
            f1(100 * c.rejectedFraction()),
            RunResult.fmt(c.percentileMillis(50)),
            RunResult.fmt(c.percentileMillis(90)),
            RunResult.fmt(c.percentileMillis(99))));
  }

  /**
   * A one-line summary: goodput, sessions, purchases (all, and those without a refusal before
   * them), refused sessions, the generator's worst lag.
   */
  public static String summary(RunResult r) {
    return String.format(
        Locale.ROOT,
        "run %.1f s; goodput %.1f requests/s (%.1f pages/s with"
            + " database work); sessions %d started, %d abandoned, %d refused at entry, %d refused"
            + " mid-session; purchases %d, %d without a refusal before them; buyers %d, lost %s;"
            + " generator's worst lag behind schedule %.1f ms",
        r.elapsed().toNanos() / 1e9,
        r.goodputPerSecond(),
        r.pageGoodputPerSecond(),
        r.sessionsStarted(),
        r.sessionsAbandoned(),
        r.sessionsRefusedAtEntry(),
        r.sessionsRefusedMidSession(),
        r.purchases(),
        r.purchasesWithoutRefusal(),
        r.buyers(),
        r.buyersLost(),
        r.lagMaxMillis());
  }

  /** The time series and the gauge readings as CSV. */
  public static void writeCsv(Path file, RunResult r) throws IOException {
    StringBuilder csv =
        new StringBuilder(
            "seconds,generated,completed,rejected,timed_out,purchases,rejected_fraction,p90_ms\n");
    for (RunResult.SeriesPoint p : r.series()) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%.2f,%d,%d,%d,%d,%d,%.4f,%s%n",
              p.seconds(),
              p.generated(),
              p.completed(),
              p.rejected(),
              p.timedOut(),
              p.purchases(),
              p.rejectedFraction(),
              Double.isNaN(p.p90Millis())
                  ? ""
                  : String.format(Locale.ROOT, "%.2f", p.p90Millis())));
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, csv);
    StringBuilder g = new StringBuilder("seconds,admission_rate,queue_length,lifo,quality\n");
    for (RunRecorder.GaugeSample s : r.gauges()) {
      g.append(
          String.format(
              Locale.ROOT,
              "%.2f,%s,%s,%.0f,%s%n",
              s.seconds(),
              num(s.admissionRate()),
              num(s.queueLength()),
              s.lifo(),
              num(s.quality())));
    }
    Files.writeString(Path.of(file.toString().replace(".csv", "-server.csv")), g);
  }

  /** The four standard plots of one run, named {@code prefix-*.png}; returns their names. */
  public static List<String> plotSeries(Path dir, String prefix, String title, RunResult r)
      throws IOException {
    List<Double> t = r.series().stream().map(RunResult.SeriesPoint::seconds).toList();
    List<Double> p90 = r.series().stream().map(RunResult.SeriesPoint::p90Millis).toList();
    List<Double> rej = r.series().stream().map(RunResult.SeriesPoint::rejectedFraction).toList();
    List<Double> gt = r.gauges().stream().map(RunRecorder.GaugeSample::seconds).toList();
    List<Double> rate = r.gauges().stream().map(RunRecorder.GaugeSample::admissionRate).toList();
    List<Double> queue = r.gauges().stream().map(RunRecorder.GaugeSample::queueLength).toList();
    List<String> names = new ArrayList<>();
    names.add(prefix + "-p90.png");
    Charts.lines(
        dir.resolve(prefix + "-p90.png"),
        title + ": p90 of completed requests",
        "time (s)",
        "p90 (ms)",
        List.of(new Charts.Line("p90", t, p90)),
        false);
    names.add(prefix + "-rejected.png");
    Charts.lines(
        dir.resolve(prefix + "-rejected.png"),
        title + ": rejected fraction",
        "time (s)",
        "fraction",
        List.of(new Charts.Line("rejected", t, rej)),
        false);
    if (rate.stream().anyMatch(v -> !Double.isNaN(v))) {
      names.add(prefix + "-rate.png");
      Charts.lines(
          dir.resolve(prefix + "-rate.png"),
          title + ": summed admission rate",
          "time (s)",
          "requests/s",
          List.of(new Charts.Line("rate", gt, rate)),
          false);
    }
    if (queue.stream().anyMatch(v -> !Double.isNaN(v))) {
      names.add(prefix + "-queue.png");
      Charts.lines(
          dir.resolve(prefix + "-queue.png"),
          title + ": requests waiting in queues",
          "time (s)",
          "requests",
          List.of(new Charts.Line("waiting", gt, queue)),
          false);
    }
    return names;
  }

  static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
  }
}
