package org.overloadcontrol.it.experiments.springcold;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.overloadcontrol.it.load.Charts;

/**
 * The experiment's report, {@code spring-cold-start.md}: per variant and run, what ab counted
 * in each window and how that compares with the {@code none} run of the same round, what the
 * server's own log saw, the command lines, and plots of served and refused per second and of
 * the starter's limit; the per-second numbers go to a CSV beside it.
 */
final class ColdStartReport {

  static final String NAME = "spring-cold-start";

  private final Path out;
  private final int firstSeconds;
  private final int seconds;
  private final int connections;

  ColdStartReport(Path out, int firstSeconds, int seconds, int connections) {
    this.out = out;
    this.firstSeconds = firstSeconds;
    this.seconds = seconds;
    this.connections = connections;
  }

  /** Writes the report, its CSV and its plots; returns the report's file. */
  Path write(List<ColdStartRun> runs, String springBoot) throws IOException {
    StringBuilder md = new StringBuilder();
    String w1 = "0–" + firstSeconds + " s";
    String w2 = firstSeconds + "–" + seconds + " s";
    md.append("# A Spring Boot method from a cold start under ab -c ")
        .append(connections)
        .append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Spring Boot %s on its embedded Tomcat, web starter and ours, one"
                + " `@GetMapping(\"/work\")` that sleeps %d ms under `@ResponseTimeTarget(\"100ms\")`, nothing under"
                + " `overload.*`. Variant `default`: the starter as README says; `none`: the same"
                + " application with `--overload.spring.enabled=false`. Every run is a fresh JVM;"
                + " `ab -r -c %d` starts the moment Spring Boot has started, for %d s, then a"
                + " second `ab` for %d s. Java %s, %d cores.%n%n",
            springBoot,
            SpringColdStartExperiment.WORK_MILLIS,
            connections,
            firstSeconds,
            seconds - firstSeconds,
            System.getProperty("java.version"),
            Runtime.getRuntime().availableProcessors()));
    md.append("## What ab counted\n\n");
    md.append(
        "Served: 2xx answers (ab's complete minus its non-2xx); refused: its non-2xx; ratio:"
            + " served over the `none` run of the same round; latency: ab's percentiles of"
            + " every answer, refusals included (ms).\n\n");
    md.append(
        header(
            "variant",
            "run",
            "start (s)",
            "served " + w1,
            "refused " + w1,
            "served " + w2,
            "refused " + w2,
            "served / none " + w1,
            "served / none " + w2,
            "p50 / p90 / p99 " + w1,
            "p50 / p90 / p99 " + w2,
            "ab failed"));
    for (ColdStartRun r : runs) {
      ColdStartRun none = none(runs, r.round());
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f | %,d | %,d | %,d | %,d | %s | %s | %s | %s | %,d |%n",
              r.variant(),
              r.round(),
              r.startSeconds(),
              r.first().served(),
              r.first().non2xx(),
              r.second().served(),
              r.second().non2xx(),
              ratio(r.first().served(), none == null ? 0 : none.first().served()),
              ratio(r.second().served(), none == null ? 0 : none.second().served()),
              percentiles(r.first()),
              percentiles(r.second()),
              r.first().failed() + r.second().failed()));
    }
    md.append(
        "\nab's failed requests are its non-2xx ones (their length differs from the first"
            + " answer's) plus connection errors.\n\n");
    md.append("## What the server's log saw\n\n");
    md.append(
        "The experiments' request log on Tomcat's engine, by the second in which each answer"
            + " completed: served (200), refused (503, 429), other statuses; the server's times"
            + " of the served requests in the first window (ms); the starter's concurrency limit"
            + " (its first group), mean over the window.\n\n");
    md.append(
        header(
            "variant",
            "run",
            "served " + w1,
            "refused " + w1,
            "served " + w2,
            "refused " + w2,
            "other",
            "served in the first 5 s",
            "served p50 / p90 / p99 " + w1,
            "limit " + w1,
            "limit " + w2));
    for (ColdStartRun r : runs) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d | %,d | %,d | %,d | %,d | %,d | %.0f / %.0f / %.0f | %s | %s |%n",
              r.variant(),
              r.round(),
              ColdStartRun.sum(r.served(), 0, firstSeconds),
              ColdStartRun.sum(r.refused(), 0, firstSeconds),
              ColdStartRun.sum(r.served(), firstSeconds, seconds),
              ColdStartRun.sum(r.refused(), firstSeconds, seconds),
              ColdStartRun.sum(r.other(), 0, seconds),
              ColdStartRun.sum(r.served(), 0, 5),
              r.servedMillis()[0],
              r.servedMillis()[1],
              r.servedMillis()[2],
              limit(ColdStartRun.mean(r.limit(), 0, firstSeconds)),
              limit(ColdStartRun.mean(r.limit(), firstSeconds, seconds))));
    }
    md.append(
        "\nThe starter's first concurrency group: `" + groups(runs) + "`.\n\n## Per second\n\n");
    for (String variant : variants(runs)) {
      String png = NAME + "-" + variant + ".png";
      plotVariant(runs, variant, out.resolve(png));
      md.append("![served and refused per second, ")
          .append(variant)
          .append("](")
          .append(png)
          .append(")\n\n");
    }
    if (plotLimit(runs, out.resolve(NAME + "-limit.png"))) {
      md.append("![the starter's concurrency limit](").append(NAME).append("-limit.png)\n\n");
    }
    md.append("Every second's numbers: [").append(NAME).append(".csv](").append(NAME);
    md.append(".csv); each run's ab output, server log and Spring Boot log are beside it.\n\n");
    writeCsv(runs);
    md.append("## Command lines\n\n");
    md.append(
        "```\nmvn -Pexperiments -Dexperiment.shop=spring -pl src-it -am verify -Dtest=none"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false"
            + " -Dit.test=SpringColdStartExperiment\n```\n\n");
    for (ColdStartRun r : runs) {
      md.append("- ")
          .append(r.variant())
          .append(" #")
          .append(r.round())
          .append(": `java -cp <test class path> ")
          .append(String.join(" ", r.serverCommand()))
          .append("`, whose Spring Boot arguments are `")
          .append(r.springArguments())
          .append("`; then `")
          .append(String.join(" ", r.first().command()))
          .append("` and `")
          .append(String.join(" ", r.second().command()))
          .append("`\n");
    }
    Path file = out.resolve(NAME + ".md");
    Files.writeString(file, md);
    return file;
  }

  private static String groups(List<ColdStartRun> runs) {
    List<String> g = new ArrayList<>();
    for (ColdStartRun r : runs) {
      if (!r.group().isEmpty() && !g.contains(r.group())) {
        g.add(r.group());
      }
    }
    return g.isEmpty() ? "none" : String.join("`, `", g);
  }

  private static ColdStartRun none(List<ColdStartRun> runs, int round) {
    for (ColdStartRun r : runs) {
      if (r.variant().equals("none") && r.round() == round) {
        return r;
      }
    }
    return null;
  }

  private static List<String> variants(List<ColdStartRun> runs) {
    List<String> v = new ArrayList<>();
    for (ColdStartRun r : runs) {
      if (!v.contains(r.variant())) {
        v.add(r.variant());
      }
    }
    return v;
  }

  private static String ratio(long served, long none) {
    return none == 0 ? "–" : String.format(Locale.ROOT, "%.2f", (double) served / none);
  }

  private static String percentiles(ApacheBench.Result r) {
    return String.format(Locale.ROOT, "%.0f / %.0f / %.0f", r.p50(), r.p90(), r.p99());
  }

  private static String limit(double mean) {
    return Double.isNaN(mean) ? "–" : String.format(Locale.ROOT, "%.1f", mean);
  }

  private void plotVariant(List<ColdStartRun> runs, String variant, Path png) throws IOException {
    List<Charts.Line> lines = new ArrayList<>();
    for (ColdStartRun r : runs) {
      if (r.variant().equals(variant)) {
        lines.add(new Charts.Line("served #" + r.round(), axis(), series(r.served())));
        lines.add(new Charts.Line("refused #" + r.round(), axis(), series(r.refused())));
      }
    }
    Charts.lines(
        png,
        variant + ": answers per second from the moment Spring Boot started",
        "seconds since ab started",
        "answers per second",
        lines,
        false);
  }

  private boolean plotLimit(List<ColdStartRun> runs, Path png) throws IOException {
    List<Charts.Line> lines = new ArrayList<>();
    for (ColdStartRun r : runs) {
      if (!Double.isNaN(ColdStartRun.mean(r.limit(), 0, seconds))) {
        List<Double> y = new ArrayList<>();
        for (double l : r.limit()) {
          y.add(l);
        }
        lines.add(new Charts.Line(r.variant() + " #" + r.round(), axis(), y));
      }
    }
    if (lines.isEmpty()) {
      return false;
    }
    Charts.lines(
        png,
        "The starter's concurrency limit (mean of each second)",
        "seconds since ab started",
        "limit",
        lines,
        false);
    return true;
  }

  private void writeCsv(List<ColdStartRun> runs) throws IOException {
    StringBuilder csv = new StringBuilder("variant,run,second,served,refused,other,limit\n");
    for (ColdStartRun r : runs) {
      for (int s = 0; s < seconds; s++) {
        csv.append(
            String.format(
                Locale.ROOT,
                "%s,%d,%d,%d,%d,%d,%s%n",
                r.variant(),
                r.round(),
                s + 1,
                r.served()[s],
                r.refused()[s],
                r.other()[s],
                Double.isNaN(r.limit()[s])
                    ? ""
                    : String.format(Locale.ROOT, "%.1f", r.limit()[s])));
      }
    }
    Files.writeString(out.resolve(NAME + ".csv"), csv);
  }

  /** Seconds 1..n, each bucket plotted at its end. */
  private List<Double> axis() {
    List<Double> x = new ArrayList<>(seconds);
    for (int i = 0; i < seconds; i++) {
      x.add(i + 1.0);
    }
    return x;
  }

  private static List<Double> series(long[] counts) {
    List<Double> y = new ArrayList<>(counts.length);
    for (long c : counts) {
      y.add((double) c);
    }
    return y;
  }

  /** A markdown table's header row and its rule. */
  private static String header(String... columns) {
    return "| " + String.join(" | ", columns) + " |\n|" + "---|".repeat(columns.length) + "\n";
  }
}
