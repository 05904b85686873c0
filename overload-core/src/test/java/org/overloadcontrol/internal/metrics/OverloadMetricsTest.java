package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.RequestTag;

/** The metrics read what the engine does: admissions, waits, rejections, controller rounds. */
class OverloadMetricsTest {

  private final EngineDriver driver = new EngineDriver();
  private final RecordedMetrics registry = new RecordedMetrics();
  private final OverloadWatch watch =
      new OverloadWatch(1_000_000_000L, 5_000_000_000L, StateChange.Listener.NONE);
  private final OverloadMetrics metrics = new OverloadMetrics(driver.engine, registry, watch);

  private double value(String name) {
    return registry.value(name);
  }

  private static String cls(String endpoint, String c, String metric) {
    return "overload.endpoint." + endpoint + ".class." + c + "." + metric;
  }

  @Test
  void queueMetricsExistFromTheStartAndEndpointsAppearWhenFirstSeen() {
    assertThat(registry.names())
        .contains(
            "overload.queue.lifo",
            "overload.queue.waiting",
            "overload.queue.permits_in_use",
            "overload.queue.permits_limit",
            "overload.queue.class.search.length",
            "overload.queue.class.confirm.length",
            "overload.queue.class.default.length");
    assertThat(registry.names()).noneMatch(n -> n.startsWith("overload.endpoint."));

    driver.arrive("search");
    assertThat(registry.names()).noneMatch(n -> n.startsWith("overload.endpoint."));
    metrics.sync();
    assertThat(registry.names())
        .contains(
            cls("search", "search", "arrivals"),
            cls("search", "search", "outcomes.completed"),
            cls("search", "search", "outcomes.rejected"),
            cls("search", "search", "outcomes.expired"),
            cls("search", "search", "outcomes.failed"),
            cls("search", "search", "outcomes.redirected"),
            cls("search", "search", "enqueued"),
            cls("search", "search", "wait_seconds"),
            cls("search", "search", "p90_estimate_seconds"),
            cls("search", "search", "p90_target_seconds"),
            cls("search", "search", "admission_rate"),
            "overload.endpoint.search.permits_in_use",
            "overload.endpoint.search.waiting",
            "overload.endpoint.search.quality",
            "overload.endpoint.search.state.healthy",
            "overload.endpoint.search.state.limiting",
            "overload.endpoint.search.state.degraded",
            "overload.endpoint.search.state.shedding",
            "overload.endpoint.search.refused_share",
            "overload.endpoint.search.admission_enabled");
    assertThat(registry.names()).noneMatch(n -> n.contains(".confirm.class."));
  }

  @Test
  void metricsMoveAsRequestsAreAdmittedQueuedAndRejected() {
    RequestTag first = driver.arrive("search");
    metrics.sync();
    assertThat(first.decision()).isEqualTo(Decision.ADMIT);
    assertThat(value(cls("search", "search", "arrivals"))).isEqualTo(1);
    assertThat(value("overload.endpoint.search.permits_in_use")).isEqualTo(1);
    assertThat(value("overload.queue.permits_in_use")).isEqualTo(1);

    RequestTag second = driver.arrive("search"); // the second token, but no permit: it waits
    assertThat(second.decision()).isEqualTo(Decision.WAIT);
    assertThat(value(cls("search", "search", "enqueued"))).isEqualTo(1);
    assertThat(value("overload.queue.class.search.length")).isEqualTo(1);
    assertThat(value("overload.queue.waiting")).isEqualTo(1);
    assertThat(value("overload.endpoint.search.waiting")).isEqualTo(1);

    RequestTag third = driver.arrive("search"); // the bucket (depth 2) is empty: rejected
    assertThat(third.decision()).isEqualTo(Decision.REJECT);
    assertThat(value(cls("search", "search", "arrivals"))).isEqualTo(3);
    assertThat(value(cls("search", "search", "outcomes.rejected"))).isEqualTo(1);

    driver.ticker.advance(Duration.ofMillis(300));
    driver.engine.settle(first, Outcome.COMPLETED, 100); // hands the permit to the waiter
    assertThat(value(cls("search", "search", "outcomes.completed"))).isEqualTo(1);
    assertThat(value("overload.queue.class.search.length")).isZero();
    assertThat(value("overload.endpoint.search.permits_in_use")).isEqualTo(1);
    assertThat(value(cls("search", "search", "wait_seconds"))).isEqualTo(0.3);
  }

  @Test
  void controllerEstimateTargetAndRateAreExposed() {
    RequestTag slow = driver.arrive("search");
    metrics.sync();
    assertThat(value(cls("search", "search", "p90_estimate_seconds"))).isNaN();
    assertThat(value(cls("search", "search", "p90_target_seconds"))).isEqualTo(1.0);
    assertThat(value(cls("search", "search", "admission_rate"))).isEqualTo(2.0);

    // A 3 s response against a 1 s target; the round (due after its 1 s timeout) takes it as
    // its p90 and, the class missing its target, cuts the rate in proportion: target / p90.
    driver.ticker.advance(Duration.ofSeconds(3));
    driver.engine.settle(slow, Outcome.COMPLETED, 0);
    // Within the recorder's two significant digits (HdrHistogram buckets, ±1 %).
    assertThat(value(cls("search", "search", "p90_estimate_seconds")))
        .isCloseTo(3.0, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(value(cls("search", "search", "p90_sample_seconds")))
        .isCloseTo(3.0, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(value(cls("search", "search", "admission_rate")))
        .isCloseTo(2.0 / 3.0, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void countsAreRecordedAsCountsAndTheRestAsGauges() {
    driver.arrive("search");
    metrics.sync();
    assertThat(registry.get(cls("search", "search", "arrivals")).count()).isTrue();
    assertThat(registry.get(cls("search", "search", "outcomes.rejected")).count()).isTrue();
    assertThat(registry.get(cls("search", "search", "enqueued")).count()).isTrue();
    assertThat(registry.get(cls("search", "search", "wait_seconds")).count()).isFalse();
    assertThat(registry.get("overload.endpoint.search.permits_in_use").count()).isFalse();
    assertThat(registry.get("overload.queue.lifo").count()).isFalse();
  }

  @Test
  void closeClosesTheRecorder() {
    driver.arrive("search");
    metrics.sync();
    metrics.close();
    assertThat(registry.closed()).isTrue();
  }

  @Test
  void qualityFollowsTheEndpointsDegradationController() {
    EngineDriver degrading =
        new EngineDriver(
            java.util.Map.of(
                "degrade.endpoints.search.minQuality", "0.3",
                "degrade.endpoints.search.target", "1s"));
    RecordedMetrics r = new RecordedMetrics();
    OverloadMetrics m = new OverloadMetrics(degrading.engine, r, watch);
    RequestTag slow = degrading.arrive("search");
    m.sync();
    assertThat(r.value("overload.endpoint.search.quality")).isEqualTo(1.0);
    assertThat(r.value("overload.endpoint.search.min_quality")).isEqualTo(0.3);

    // A 3 s response against the 1 s target: the next quality period cuts by step 0.2.
    degrading.ticker.advance(Duration.ofSeconds(3));
    degrading.engine.settle(slow, Outcome.COMPLETED, 0);
    degrading.advance(Duration.ofMillis(1100));
    assertThat(r.value("overload.endpoint.search.quality"))
        .isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));

    // Without degradation an endpoint reads full quality.
    driver.arrive("search");
    metrics.sync();
    assertThat(value("overload.endpoint.search.quality")).isEqualTo(1.0);
    assertThat(value("overload.endpoint.search.min_quality")).isEqualTo(1.0);
  }
}
