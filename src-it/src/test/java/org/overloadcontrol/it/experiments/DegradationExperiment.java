package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.load.RunRecorder;
import org.overloadcontrol.it.load.RunReport;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionLoadGenerator;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopClient;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.DegradableWorkServlet;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Experiment 6: Welsh & Culler 2003 Figures 12 and 13, service degradation alone versus
 * degradation with admission control under a load spike. The paper's benchmark is one
 * bottleneck stage whose cost follows a quality knob; the shop's search page shows fewer
 * results when degraded but holds its database connection just as long, so this experiment
 * uses the integration tests' {@link DegradableWorkServlet} instead (2 permits, 10 ms +
 * quality × 90 ms: 20 requests/s at full quality, 71/s at q_min = 0.2), mapped at
 * {@code /search} in an exploded web application, with the filter's degradation controller
 * (period 1 s, the default cut of 20 %). Open-loop requests: 10/s, a spike of 120/s, 10/s.
 */
class DegradationExperiment {

  private static final String TARGET = "500ms";

  static ExplodedWebApp app(String mode) {
    ExplodedWebApp app = new ExplodedWebApp();
    if (mode != null) {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("endpoints.search.target", TARGET);
      p.put("degrade.endpoints.search.mode", mode);
      p.put("controller.bucketDepth", "4");
      app.withOverloadFilter(p);
    }
    return app.withServlet(
        "search",
        DegradableWorkServlet.class,
        Map.of("permits", "2", "baseMillis", "10", "workMillis", "90"),
        "/search");
  }

  @Test
  void degradationAloneAndWithAdmission() throws Exception {
    int seconds = ExperimentShop.seconds("experiment.seconds", 60);
    double spikeStart = seconds / 4.0;
    double spikeEnd = 3 * seconds / 4.0;
    SessionModel one = SessionModel.singlePage(ShopRequest.SEARCH);
    UserBehaviour users =
        new UserBehaviour(
            Duration.ofSeconds(30), Duration.ZERO, 0, 0, Duration.ZERO, Duration.ZERO);
    Map<String, String> modes = new LinkedHashMap<>();
    modes.put("no control", null);
    modes.put("degradation alone", "alone");
    modes.put("degradation + admission", "combined");
    Path apps = ExperimentShop.OUT.resolve("apps");
    List<Charts.Line> p90 = new ArrayList<>();
    List<Charts.Line> quality = new ArrayList<>();
    List<Charts.Line> rejected = new ArrayList<>();
    StringBuilder table =
        new StringBuilder(
            "| configuration | spike p90 ms (after 5 s) |"
                + " spike rejected % | mean quality in spike | served/s in spike | load avg |\n"
                + "|---|---|---|---|---|---|\n");
    StringBuilder runs = new StringBuilder();
    for (Map.Entry<String, String> m : modes.entrySet()) {
      String key = m.getValue() == null ? "none" : m.getValue();
      Path dir = app(m.getValue()).writeUnder(apps, "degrade-" + key);
      String load = ExperimentShop.load();
      try (WebContainer container = ContainerKind.JETTY.start(Deployment.of(dir));
          ShopClient client = new ShopClient(container.baseUri(), 2048)) {
        RunResult r =
            new SessionLoadGenerator(
                    client,
                    one,
                    users,
                    new EngineGauge(container.servletContext(), "search"),
                    Map.of())
                .run(
                    StepSchedule.spike(10, 120, spikeStart, spikeEnd),
                    Duration.ofSeconds(seconds),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(1),
                    17L);
        String prefix = "degrade-" + key;
        RunReport.writeCsv(ExperimentShop.OUT.resolve(prefix + ".csv"), r);
        List<Double> t = r.series().stream().map(RunResult.SeriesPoint::seconds).toList();
        p90.add(
            new Charts.Line(
                m.getKey(), t, r.series().stream().map(RunResult.SeriesPoint::p90Millis).toList()));
        rejected.add(
            new Charts.Line(
                m.getKey(),
                t,
                r.series().stream().map(RunResult.SeriesPoint::rejectedFraction).toList()));
        quality.add(
            new Charts.Line(
                m.getKey(),
                r.gauges().stream().map(RunRecorder.GaugeSample::seconds).toList(),
                r.gauges().stream().map(RunRecorder.GaugeSample::quality).toList()));
        List<RunResult.SeriesPoint> spike =
            r.series().stream()
                .filter(p -> p.seconds() > spikeStart + 5 && p.seconds() <= spikeEnd)
                .toList();
        double worst =
            spike.stream()
                .mapToDouble(RunResult.SeriesPoint::p90Millis)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(Double.NaN);
        double meanQuality =
            r.gauges().stream()
                .filter(g -> g.seconds() > spikeStart + 5 && g.seconds() <= spikeEnd)
                .mapToDouble(RunRecorder.GaugeSample::quality)
                .filter(v -> !Double.isNaN(v))
                .average()
                .orElse(Double.NaN);
        double served =
            spike.stream().mapToLong(RunResult.SeriesPoint::completed).sum()
                / Math.max(1.0, spike.size());
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %.0f | %.1f | %s | %.1f | %s |%n",
                m.getKey(),
                worst,
                100 * LoadSpikeExperiment.spikeFraction(r, spikeStart + 5, spikeEnd),
                Double.isNaN(meanQuality)
                    ? "1 (no filter)"
                    : String.format(Locale.ROOT, "%.2f", meanQuality),
                served,
                load));
        runs.append(
            String.format(
                Locale.ROOT,
                "## %s%n%n%s%n%n%s%n",
                m.getKey(),
                RunReport.summary(r),
                RunReport.perType(r)));
        System.out.println(prefix + ": " + RunReport.summary(r));
      }
    }
    Charts.lines(
        ExperimentShop.OUT.resolve("degrade-p90.png"),
        "Degradation under a spike: p90 of completed requests (1-s windows), target " + TARGET,
        "time (s)",
        "p90 (ms)",
        p90,
        true);
    Charts.lines(
        ExperimentShop.OUT.resolve("degrade-quality.png"),
        "Degradation under a spike: quality",
        "time (s)",
        "quality",
        quality,
        false);
    Charts.lines(
        ExperimentShop.OUT.resolve("degrade-rejected.png"),
        "Degradation under a spike: fraction rejected",
        "time (s)",
        "fraction",
        rejected,
        false);
    String md =
        String.format(
                Locale.ROOT,
                "# Experiment 6: degradation alone vs with admission"
                    + " control (Welsh & Culler Figures 12 and 13)%n%nEmbedded Jetty 12, an exploded"
                    + " application with DegradableWorkServlet at /search (2 permits, 10 ms + quality ×"
                    + " 90 ms), p90 target %s, q_min 0.2, degradation period 1 s, cut 20 %%. Open loop:"
                    + " 10 requests/s, 120/s from %.0f s to %.0f s, then 10/s.%n%n",
                TARGET,
                spikeStart,
                spikeEnd)
            + table
            + "\n![](degrade-p90.png)\n![](degrade-quality.png)\n"
            + "![](degrade-rejected.png)\n\n"
            + runs;
    Files.writeString(ExperimentShop.OUT.resolve("degrade.md"), md);
  }
}
