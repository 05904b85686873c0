package org.overloadcontrol.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.ToDoubleBiFunction;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Summarises the end-to-end runs: per variant the median over rounds of throughput and
 * latency percentiles, and the median of its per-round throughput ratio to the unfiltered
 * server (a ratio within a round cancels most of the machine's drift).
 */
final class E2eReport {

  private static final int BOOTSTRAP_RESAMPLES = 10_000;

  /**
   * The filter with a target as it was before the concurrency limit became the default (the
   * token bucket): the reference for what the new default may cost.
   */
  static final String TODAYS_FILTER = "OverloadFilter, target 10s, rate";

  /** The reference of the paired tables: the servlet without a filter. */
  static final String NO_FILTER = "no filter";

  private final List<String> variants;
  private final List<EndToEndOverhead.Run> runs;

  E2eReport(List<String> variants, List<EndToEndOverhead.Run> runs) {
    this.variants = variants;
    this.runs = runs;
  }

  /**
   * Pools the rounds of several runs (their {@code e2e.csv} files) and prints the paired
   * tables over all of them: more rounds, a narrower interval.
   *
   * <pre>
   *   java -cp benchmarks/target/benchmarks.jar org.overloadcontrol.benchmarks.E2eReport \
   *       run1/e2e.csv run2/e2e.csv ...
   * </pre>
   */
  public static void main(String[] args) throws IOException {
    List<String> variants = new ArrayList<>();
    List<EndToEndOverhead.Run> runs = new ArrayList<>();
    int roundOffset = 0;
    for (String file : args) {
      int lastRound = 0;
      List<String> lines = Files.readAllLines(Path.of(file));
      for (String line : lines.subList(1, lines.size())) {
        EndToEndOverhead.Run r = parse(line, roundOffset);
        if (!variants.contains(r.variant())) {
          variants.add(r.variant());
        }
        runs.add(r);
        lastRound = Math.max(lastRound, r.round());
      }
      roundOffset = lastRound;
    }
    E2eReport report = new E2eReport(variants, runs);
    // The files list variants in the order they ran, which is shuffled each round.
    String base = variants.contains(NO_FILTER) ? NO_FILTER : variants.get(0);
    System.out.println(report.pairedTable(base));
    if (variants.contains("QoSFilter")) {
      System.out.println(report.pairedTable("QoSFilter"));
    }
    System.out.println(report.cpuPairedTable(base));
    if (variants.contains(TODAYS_FILTER) && !base.equals(TODAYS_FILTER)) {
      System.out.println(report.cpuPairedTable(TODAYS_FILTER));
    }
  }

  /** One line of {@link #csv()}: the variant's name is the quoted field. */
  private static EndToEndOverhead.Run parse(String line, int roundOffset) {
    int open = line.indexOf('"');
    int close = line.indexOf('"', open + 1);
    if (open < 0 || close < 0) {
      throw new IllegalArgumentException("not a line of e2e.csv (variant not quoted): " + line);
    }
    String[] after = line.substring(close + 2).split(",");
    return new EndToEndOverhead.Run(
        roundOffset + Integer.parseInt(line.substring(0, open - 1)),
        line.substring(open + 1, close),
        Double.parseDouble(after[0]),
        Double.parseDouble(after[1]),
        Double.parseDouble(after[2]),
        Double.parseDouble(after[3]),
        Long.parseLong(after[4]),
        Double.parseDouble(after[5]),
        0L,
        Double.parseDouble(after[6]));
  }

  String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "| variant | req/s (median) | vs no filter (median of per-round ratios) | p50 µs |"
            + " p90 µs | p99 µs | errors | server CPU µs/req (median) | extra CPU µs/req vs no"
            + " filter | host steal % (median) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double baseCpu = median(variants.get(0), EndToEndOverhead.Run::serverCpuMicrosPerRequest);
    for (String v : variants) {
      double cpu = median(v, EndToEndOverhead.Run::serverCpuMicrosPerRequest);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %.1f %% | %.0f | %.0f | %.0f | %d |" + " %.2f | %+.2f | %.1f |%n",
              v,
              median(v, EndToEndOverhead.Run::requestsPerSecond),
              100 * medianRatio(v),
              median(v, EndToEndOverhead.Run::p50Micros),
              median(v, EndToEndOverhead.Run::p90Micros),
              median(v, EndToEndOverhead.Run::p99Micros),
              runs.stream().filter(r -> r.variant().equals(v)).mapToLong(r -> r.errors()).sum(),
              cpu,
              cpu - baseCpu,
              median(v, EndToEndOverhead.Run::stealPercent)));
    }
    return sb.toString();
  }

  String csv() {
    StringBuilder sb =
        new StringBuilder(
            "round,variant,requestsPerSecond,p50Micros,p90Micros,"
                + "p99Micros,errors,serverCpuMicrosPerRequest,stealPercent\n");
    for (EndToEndOverhead.Run r : runs) {
      // Quoted: variant names hold commas.
      sb.append(
          String.format(
              Locale.ROOT,
              "%d,\"%s\",%.1f,%.1f,%.1f,%.1f,%d,%.3f,%.2f%n",
              r.round(),
              r.variant(),
              r.requestsPerSecond(),
              r.p50Micros(),
              r.p90Micros(),
              r.p99Micros(),
              r.errors(),
              r.serverCpuMicrosPerRequest(),
              r.stealPercent()));
    }
    return sb.toString();
  }

  /** Throughput of each variant in each round, grouped by round. */
  void plot(Path png) throws IOException {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(900)
            .height(450)
            .title("Trivial servlet, embedded Jetty 12, loopback, wrk (closed loop)")
            .xAxisTitle("round")
            .yAxisTitle("requests / s")
            .build();
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
    int rounds = runs.stream().mapToInt(EndToEndOverhead.Run::round).max().orElse(0);
    List<String> x = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      x.add(Integer.toString(r));
    }
    for (String v : variants) {
      List<Double> y = new ArrayList<>();
      for (int r = 1; r <= rounds; r++) {
        int round = r;
        y.add(
            runs.stream()
                .filter(run -> run.round() == round && run.variant().equals(v))
                .mapToDouble(EndToEndOverhead.Run::requestsPerSecond)
                .findFirst()
                .orElse(0));
      }
      chart.addSeries(v, x, y);
    }
    // XChart 4 deprecates its single-chart saveBitmap; the image itself is not.
    javax.imageio.ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", png.toFile());
  }

  private double median(
      String variant, java.util.function.ToDoubleFunction<EndToEndOverhead.Run> f) {
    return median(runs.stream().filter(r -> r.variant().equals(variant)).mapToDouble(f).toArray());
  }

  private double medianRatio(String variant) {
    return median(ratios(variant, variants.get(0)));
  }

  /** The variant's throughput over the base's, round by round. */
  private double[] ratios(String variant, String base) {
    return paired(variant, base, (r, b) -> r.requestsPerSecond() / b.requestsPerSecond());
  }

  /** The variant's server CPU per request minus the reference's, round by round. */
  private double[] cpuDifferences(String variant, String reference) {
    return paired(
        variant,
        reference,
        (r, b) -> r.serverCpuMicrosPerRequest() - b.serverCpuMicrosPerRequest());
  }

  /** {@code compare} of each of the variant's runs with the base's run of the same round. */
  private double[] paired(
      String variant,
      String base,
      ToDoubleBiFunction<EndToEndOverhead.Run, EndToEndOverhead.Run> compare) {
    List<Double> values = new ArrayList<>();
    for (EndToEndOverhead.Run r : runs) {
      if (!r.variant().equals(variant)) {
        continue;
      }
      runs.stream()
          .filter(b -> b.round() == r.round() && b.variant().equals(base))
          .findFirst()
          .ifPresent(b -> values.add(compare.applyAsDouble(r, b)));
    }
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * Each variant against one reference, paired by round: the median and quartiles of the
   * per-round throughput ratios, and in how many rounds the variant did at least as well.
   * Pairing by round cancels the drift of a shared machine; the quartiles say how far the
   * rest of the noise goes.
   */
  String pairedTable(String reference) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "| variant | vs %s, median of rounds | 95 %% interval of"
                + " the median | quartiles | rounds at or above |%n|---|---:|---:|---:|---:|%n",
            reference));
    for (String v : variants) {
      if (v.equals(reference)) {
        continue;
      }
      double[] r = ratios(v, reference);
      long atLeast = Arrays.stream(r).filter(x -> x >= 1.0).count();
      double[] interval = medianInterval(r);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f %% | %.1f–%.1f %% | %.1f–%.1f %% | %d of %d" + " |%n",
              v,
              100 * median(r),
              100 * interval[0],
              100 * interval[1],
              100 * quantile(r, 0.25),
              100 * quantile(r, 0.75),
              atLeast,
              r.length));
    }
    return sb.toString();
  }

  /**
   * Each variant's server CPU per request against one reference, paired by round: the median
   * and quartiles of the per-round differences in µs per request. CPU per request moves less
   * with the machine than throughput; the A/A control's line says how far noise alone moves a
   * difference in this run.
   */
  String cpuPairedTable(String reference) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "| variant | server CPU µs/req minus %s's, median of rounds | 95 %% interval of the"
                + " median | quartiles | rounds |%n|---|---:|---:|---:|---:|%n",
            reference));
    for (String v : variants) {
      if (v.equals(reference)) {
        continue;
      }
      double[] d = cpuDifferences(v, reference);
      double[] interval = medianInterval(d);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %+.2f | %+.2f – %+.2f | %+.2f – %+.2f | %d |%n",
              v,
              median(d),
              interval[0],
              interval[1],
              quantile(d, 0.25),
              quantile(d, 0.75),
              d.length));
    }
    return sb.toString();
  }

  /**
   * A 95 % interval for the median of {@code values}: the percentile bootstrap over the rounds
   * (the rounds are the independent units; resampled with replacement, seeded so that the same
   * rounds give the same interval).
   */
  private static double[] medianInterval(double[] values) {
    if (values.length < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    Random random = new Random(1);
    double[] medians = new double[BOOTSTRAP_RESAMPLES];
    double[] resample = new double[values.length];
    for (int b = 0; b < medians.length; b++) {
      for (int i = 0; i < resample.length; i++) {
        resample[i] = values[random.nextInt(values.length)];
      }
      medians[b] = median(resample);
    }
    return new double[] {quantile(medians, 0.025), quantile(medians, 0.975)};
  }

  /** The q-quantile, linearly interpolated between order statistics (R's type 7). */
  private static double quantile(double[] values, double q) {
    if (values.length == 0) {
      return Double.NaN;
    }
    return new Percentile()
        .withEstimationType(Percentile.EstimationType.R_7)
        .evaluate(values, 100 * q);
  }

  private static double median(double[] values) {
    return quantile(values, 0.5);
  }
}
