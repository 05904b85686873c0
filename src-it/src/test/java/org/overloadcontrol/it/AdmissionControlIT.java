package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.EngineProbe;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LoadPlan;
import org.overloadcontrol.it.support.LoadSummary;
import org.overloadcontrol.it.support.OpenLoopDriver;
import org.overloadcontrol.it.support.QueueingServlet;
import org.overloadcontrol.it.support.RecordingOverloadFilter;

/**
 * The proof of issue 2 in real containers: a servlet whose response time grows with
 * concurrency ({@link QueueingServlet}: 4 permits of 50 ms, a capacity of 80 requests/s) is
 * offered twice its capacity, Poisson, open loop, in embedded Jetty and in embedded Tomcat.
 *
 * <p>With {@code OverloadFilter} (p90 target 200 ms, initial admission rate 120/s, above
 * capacity, so the controller has to cut), the p90 of the admitted requests in the steady part
 * stays near the target and the excess gets 503 with {@code Retry-After}. Without the filter
 * every request is queued and the p90 grows far past the target. Latencies are measured by
 * the client, from each request's scheduled send time (Welsh &amp; Culler 2003 §3.2, §4).
 */
class AdmissionControlIT {

  private static final int PERMITS = 4;
  private static final long SERVICE_MILLIS = 50;
  private static final double CAPACITY_PER_SECOND = PERMITS * 1000.0 / SERVICE_MILLIS;
  private static final double OFFERED_PER_SECOND = 2 * CAPACITY_PER_SECOND;
  private static final Duration TARGET = Duration.ofMillis(200);

  @TempDir static Path apps;
  private static OpenLoopDriver driver;

  @BeforeAll
  static void startDriver() throws Exception {
    driver = new OpenLoopDriver();
  }

  @AfterAll
  static void stopDriver() {
    driver.close();
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void filterHoldsTheP90OfAdmittedRequestsNearTheTargetAndRejectsTheExcess(ContainerKind kind)
      throws Exception {
    ExplodedWebApp app =
        new ExplodedWebApp()
            .withOverloadFilter(
                RecordingOverloadFilter.class,
                Map.of(
                    "endpoints.work.target", TARGET.toMillis() + "ms",
                    "controller.initialRate", "120",
                    "controller.bucketDepth", "4"))
            .withServlet("work", QueueingServlet.class, servletParams(), "/work");
    Path dir = app.writeUnder(apps, kind + "-filtered");
    RecordingOverloadFilter.clear();
    try (var container = kind.start(Deployment.of(dir))) {
      LoadPlan plan =
          LoadPlan.of(
                  container.baseUri().resolve("work"), OFFERED_PER_SECOND, Duration.ofSeconds(15))
              .withWarmup(Duration.ofSeconds(5))
              .withHeaders(Map.of("Accept", "application/json"));
      LoadSummary s = driver.run(plan);
      EngineProbe.RouteView route =
          EngineProbe.route(container.servletContext(), "work").orElseThrow();
      report(kind, "with the filter", s);
      System.out.printf("[%s] controller rounds:%n%s", kind, RecordingOverloadFilter.trace());
      System.out.printf(
          Locale.ROOT,
          "[%s] controller: rate %.1f/s, p90 estimate %.0f ms," + " admitted %d, rejected %d%n",
          kind,
          route.ratePerSecond(),
          route.estimateNanos() / 1e6,
          route.completedCount(),
          route.rejectedCount());

      assertThat(s.okP90())
          .as("p90 of admitted requests, steady part")
          .isLessThanOrEqualTo(TARGET.multipliedBy(2));
      assertThat(s.failedCount() + s.otherCount())
          .as("requests without a 200 or a refusal")
          .isZero();
      assertThat(s.rejectedCount()).as("requests refused").isPositive();
      assertThat(s.rejectedWithoutRetryAfterCount()).as("refusals without Retry-After").isZero();
      double steadySeconds = (plan.duration().toNanos() - plan.warmup().toNanos()) / 1e9;
      double steadyGoodput = s.steadyCount(200) / steadySeconds;
      // The controller must shed the excess, not everything. The paper's exact controller
      // (controller.judgeOnFreshSamples=false) cuts again in every round while the requests
      // queued before its first cut finish late, and settled at 28-31/s here; judging on
      // fresh samples it stays at 64-67/s (docs/controller.md).
      assertThat(steadyGoodput)
          .as("admitted requests/s in the steady part")
          .isGreaterThan(0.65 * CAPACITY_PER_SECOND);
      assertThat((double) s.steadyRefusedCount() / s.steadyTotalCount())
          .as("share rejected in the steady part")
          .isGreaterThan(0.25);
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void withoutTheFilterTheP90GrowsFarPastTheTarget(ContainerKind kind) throws Exception {
    ExplodedWebApp app =
        new ExplodedWebApp().withServlet("work", QueueingServlet.class, servletParams(), "/work");
    Path dir = app.writeUnder(apps, kind + "-unfiltered");
    try (var container = kind.start(Deployment.of(dir))) {
      LoadPlan plan =
          LoadPlan.of(
                  container.baseUri().resolve("work"), OFFERED_PER_SECOND, Duration.ofSeconds(8))
              .withWarmup(Duration.ofSeconds(3))
              .withRequestTimeout(Duration.ofSeconds(30));
      LoadSummary s = driver.run(plan);
      report(kind, "without the filter", s);

      assertThat(s.rejectedCount()).as("nothing rejects without the filter").isZero();
      // Open loop: the offered load did not fall while the server slowed down.
      double expectedSent = OFFERED_PER_SECOND * plan.duration().toSeconds();
      assertThat((double) s.sentCount())
          .as("requests sent")
          .isBetween(0.85 * expectedSent, 1.15 * expectedSent);
      assertThat(s.okP90()).as("p90, steady part").isGreaterThan(TARGET.multipliedBy(5));
    }
  }

  private static Map<String, String> servletParams() {
    return Map.of(
        "permits", Integer.toString(PERMITS), "serviceTimeMillis", Long.toString(SERVICE_MILLIS));
  }

  private static void report(ContainerKind kind, String variant, LoadSummary s) {
    System.out.printf(
        Locale.ROOT,
        "[%s] %s: capacity %.0f/s, offered %.0f/s, target %d ms%n%s",
        kind,
        variant,
        CAPACITY_PER_SECOND,
        OFFERED_PER_SECOND,
        TARGET.toMillis(),
        s.format());
    System.out.printf(
        Locale.ROOT,
        "[%s] %s: steady 200s p50 %d ms, p90 %d ms, p99 %d ms%n",
        kind,
        variant,
        s.okP50().toMillis(),
        s.okP90().toMillis(),
        s.okP99().toMillis());
  }
}
