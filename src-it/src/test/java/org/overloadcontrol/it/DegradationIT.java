package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.DegradableWorkServlet;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.LoadPlan;
import org.overloadcontrol.it.support.LoadSummary;
import org.overloadcontrol.it.support.OpenLoopDriver;
import org.overloadcontrol.it.support.RecordingOverloadFilter;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Issue 5's proof, Welsh &amp; Culler 2003 Figures 12 and 13 in miniature, in embedded Jetty:
 * a servlet whose cost is proportional to the request's quality ({@link DegradableWorkServlet}:
 * 2 permits, 10 ms + q·90 ms, so 20 requests/s at full quality and 71/s at q_min = 0.2) gets a
 * light load, then a spike of 120 requests/s, Poisson, open loop; p90 target 300 ms.
 *
 * <ul>
 *   <li>Without degradation (no filter) every request is served at full quality and the p90
 *       grows to seconds.
 *   <li>Degradation alone lowers quality to q_min and response times far below that, but the
 *       spike is beyond what q_min serves, so the p90 drifts above the target.
 *   <li>Degradation combined with admission control switches admission on at q_min, rejects
 *       the excess with 503 and holds the p90 of the admitted requests near the target; when
 *       the load falls back, rejections stop, admission control goes off and quality returns
 *       to 1.
 * </ul>
 *
 * <p>The quality controller runs every 500 ms with a cut of 40 % (1 → 0.2 in three periods)
 * so the miniature fits in seconds; everything else is at its defaults but the bucket depth (4,
 * as in {@code AdmissionControlIT}, so Poisson bursts are not mistaken for overload).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DegradationIT {

  private static final Duration TARGET = Duration.ofMillis(300);
  private static final double LIGHT_PER_SECOND = 10;
  private static final double SPIKE_PER_SECOND = 120;
  private static final Duration SPIKE = Duration.ofSeconds(12);
  private static final Duration SPIKE_WARMUP = Duration.ofSeconds(4);

  @TempDir static Path apps;
  private static OpenLoopDriver driver;
  private static LoadSummary alone;

  /** What the quality controller showed every 250 ms during a run. */
  private record Sample(long millis, double quality, boolean admission) {}

  @BeforeAll
  static void startDriver() throws Exception {
    driver = new OpenLoopDriver();
  }

  @AfterAll
  static void stopDriver() {
    driver.close();
  }

  private static ExplodedWebApp app(Map<String, String> filterParams) {
    ExplodedWebApp app = new ExplodedWebApp();
    if (filterParams != null) {
      // Records the admission controller's rounds, printed for the combined run.
      app.withOverloadFilter(RecordingOverloadFilter.class, filterParams);
    }
    return app.withServlet(
        "work",
        DegradableWorkServlet.class,
        Map.of("permits", "2", "baseMillis", "10", "workMillis", "90"),
        "/work");
  }

  private static Map<String, String> degrade(String mode) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("degrade.endpoints.work.mode", mode);
    p.put("degrade.period", "500ms");
    p.put("degrade.step", "0.4");
    p.put("controller.bucketDepth", "4");
    return p;
  }

  /** Light load, then the spike; returns the spike's summary. Samples the controller. */
  private static LoadSummary spike(WebContainer container, List<Sample> samples) throws Exception {
    DegradableWorkServlet.clear();
    ServletContext context = container.servletContext();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    long start = System.nanoTime();
    sampler.scheduleAtFixedRate(
        () -> {
          OverloadEngine e = FilterEngine.of(context);
          if (e != null) {
            ControlledEndpoint work =
                e.endpoints().stream()
                    .filter(x -> x.name().equals("work"))
                    .findFirst()
                    .orElse(null);
            samples.add(
                new Sample(
                    (System.nanoTime() - start) / 1_000_000,
                    e.quality("work"),
                    work != null && work.admission().admissionEnabled()));
          }
        },
        0,
        250,
        TimeUnit.MILLISECONDS);
    try {
      var uri = container.baseUri().resolve("work");
      driver.run(LoadPlan.of(uri, LIGHT_PER_SECOND, Duration.ofSeconds(3)));
      return driver.run(
          LoadPlan.of(uri, SPIKE_PER_SECOND, SPIKE)
              .withWarmup(SPIKE_WARMUP)
              .withHeaders(Map.of("Accept", "application/json"))
              .withRequestTimeout(Duration.ofSeconds(20)));
    } finally {
      sampler.shutdownNow();
      // The samples are read once the sampler has stopped writing them.
      sampler.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static double quality(ServletContext context) {
    return FilterEngine.of(context).quality("work");
  }

  private static boolean admissionEnabled(ServletContext context) {
    OverloadEngine e = FilterEngine.of(context);
    return e.endpoints().stream()
        .filter(x -> x.name().equals("work"))
        .anyMatch(x -> x.admission().admissionEnabled());
  }

  private static void report(String variant, LoadSummary s, List<Sample> samples) {
    System.out.printf(
        Locale.ROOT,
        "[degradation, %s] spike %.0f/s, target %d ms, served %d at" + " mean quality %.2f%n%s",
        variant,
        SPIKE_PER_SECOND,
        TARGET.toMillis(),
        DegradableWorkServlet.servedCount(),
        DegradableWorkServlet.meanQuality(),
        s.format());
    System.out.printf(
        Locale.ROOT,
        "[degradation, %s] steady 200s p50 %d ms, p90 %d ms," + " p99 %d ms%n",
        variant,
        s.okP50().toMillis(),
        s.okP90().toMillis(),
        s.okP99().toMillis());
    StringBuilder trace = new StringBuilder();
    for (int i = 0; i < samples.size(); i += 4) {
      Sample x = samples.get(i);
      trace.append(
          String.format(
              Locale.ROOT,
              " %4.1fs q=%.2f%s",
              x.millis() / 1e3,
              x.quality(),
              x.admission() ? "+AC" : ""));
    }
    System.out.printf("[degradation, %s] quality every second:%s%n", variant, trace);
  }

  @Test
  @Order(1)
  void degradationAloneLowersQualityButDriftsAboveTheTargetAtExtremeLoad() throws Exception {
    Path dir = app(degrade("alone")).writeUnder(apps, "alone");
    List<Sample> samples = new CopyOnWriteArrayList<>();
    try (var container = ContainerKind.JETTY.start(Deployment.of(dir))) {
      alone = spike(container, samples);
    }
    report("alone", alone, samples);
    assertThat(alone.rejectedCount()).as("degradation alone rejects nothing").isZero();
    assertThat(alone.failedCount() + alone.otherCount()).isZero();
    assertThat(samples).as("quality reached q_min").anyMatch(x -> x.quality() <= 0.2 + 1e-9);
    assertThat(samples).as("admission stays off").noneMatch(Sample::admission);
    assertThat(alone.okP90())
        .as("p90 of the spike's steady part drifts above the target")
        .isGreaterThan(TARGET);
  }

  @Test
  @Order(2)
  void withoutDegradationTheP90IsFarWorse() throws Exception {
    Path dir = app(null).writeUnder(apps, "none");
    List<Sample> samples = new CopyOnWriteArrayList<>();
    LoadSummary none;
    try (var container = ContainerKind.JETTY.start(Deployment.of(dir))) {
      none = spike(container, samples);
    }
    report("none", none, samples);
    assertThat(DegradableWorkServlet.meanQuality()).isEqualTo(1.0);
    // Degradation alone served every request of the spike; without it, many waited past the
    // client's 20 s timeout, and the typical (median) wait of those served was far longer.
    assertThat(none.failedCount()).as("spike requests unanswered after 20 s").isPositive();
    if (alone != null) { // the comparison needs the first test's run (the class runs in order)
      assertThat(alone.failedCount()).isZero();
      assertThat(none.okP50())
          .as("median without degradation vs alone")
          .isGreaterThan(alone.okP50().multipliedBy(2));
    }
  }

  @Test
  @Order(3)
  void degradationWithAdmissionControlHoldsTheTarget() throws Exception {
    Path dir = app(degrade("combined")).writeUnder(apps, "combined");
    List<Sample> samples = new CopyOnWriteArrayList<>();
    LoadSummary s;
    LoadSummary after;
    List<Sample> afterSamples;
    RecordingOverloadFilter.clear();
    String rounds;
    try (var container = ContainerKind.JETTY.start(Deployment.of(dir))) {
      s = spike(container, samples);
      rounds = RecordingOverloadFilter.trace();
      int spikeSampleCount = samples.size();
      // The load falls back: admission control off, then quality back to 1 (+0.05 per 500 ms).
      after =
          driver.run(
              LoadPlan.of(
                      container.baseUri().resolve("work"), LIGHT_PER_SECOND, Duration.ofSeconds(12))
                  .withWarmup(Duration.ofSeconds(2)));
      // Recovery from q_min takes (1 - 0.2) / 0.05 = 16 raise periods (8 s) after admission
      // control lets go, and each waits for a period whose p90 is under 0.9 T: on a busy
      // machine a few periods hold. The light load goes on in 2 s chunks, bounded, until
      // quality is back.
      double quality = quality(container.servletContext());
      for (int extra = 0; extra < 6 && quality < 1.0; extra++) {
        driver.run(
            LoadPlan.of(
                container.baseUri().resolve("work"), LIGHT_PER_SECOND, Duration.ofSeconds(2)));
        quality = quality(container.servletContext());
      }
      afterSamples = List.of(new Sample(0, quality, admissionEnabled(container.servletContext())));
      assertThat(spikeSampleCount).isPositive();
    }
    report("combined", s, samples);
    System.out.printf(
        "[degradation, combined] admission controller rounds (light load, then"
            + " the spike):%n%s",
        rounds);
    System.out.printf(
        Locale.ROOT,
        "[degradation, combined] after the spike: %s, end %s%n%s",
        "10/s for 12 s",
        afterSamples.get(0),
        after.format());
    assertThat(samples).as("admission control came on").anyMatch(Sample::admission);
    assertThat(samples.stream().filter(Sample::admission))
        .as("only at q_min")
        .allMatch(x -> x.quality() <= 0.2 + 1e-9);
    assertThat(s.rejectedCount()).as("the excess is rejected").isPositive();
    assertThat(s.rejectedWithoutRetryAfterCount()).isZero();
    assertThat(s.failedCount() + s.otherCount()).isZero();
    assertThat(s.okP90())
        .as("p90 of admitted requests, spike's steady part")
        .isLessThanOrEqualTo(TARGET.multipliedBy(3).dividedBy(2));
    if (alone != null) {
      assertThat(s.okP90()).as("far better than degradation alone").isLessThan(alone.okP90());
    }
    assertThat(after.steadyRefusedCount()).as("rejections stop once the load falls").isZero();
    assertThat(afterSamples.get(0).quality()).as("quality back to full").isEqualTo(1.0);
    assertThat(afterSamples.get(0).admission()).as("admission control off again").isFalse();
  }
}
