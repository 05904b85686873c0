package org.overloadcontrol.internal.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.degrade.QualityRound;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.degrade.DegradableService.Second;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * Degradation through the whole engine on a fake clock (Welsh &amp; Culler 2003 §4.5, Figures 12
 * and 13 in miniature): a load step lowers quality until the target is met; at q_min with the
 * target still missed, rejections begin (combined mode) or response times drift above the
 * target (alone); when load falls, rejections stop and quality returns to 1.
 *
 * <p>The service: 4 servers, {@code S(q) = 20 ms + q·180 ms}, target p90 500 ms. At full
 * quality it meets the target up to about 12 requests per second; at q_min = 0.2 (56 ms) up to
 * about 63.
 */
class DegradationSimulationTest {

  private static final long MS = 1_000_000L;
  private static final long TARGET = 500 * MS;

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final List<QualityRound> rounds = new ArrayList<>();

  private DegradableService service(String mode) {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "endpoints.search.target", "500ms",
                "degrade.endpoints.search.minQuality", "0.2",
                "degrade.endpoints.search.mode", mode));
    OverloadEngine engine =
        OverloadEngine.builder(config)
            .ticker(ticker)
            .scheduler(scheduler)
            .qualityListener(rounds::add)
            .build();
    EndpointClass route = engine.endpoint("search").forClass(config.defaultClass());
    return new DegradableService(ticker, scheduler, engine, route, 20 * MS, 180 * MS, 4);
  }

  private static boolean near(double quality, double expected) {
    return Math.abs(quality - expected) < 1e-9;
  }

  private static long rejected(List<Second> seconds) {
    return seconds.stream().mapToLong(Second::rejected).sum();
  }

  private static long offered(List<Second> seconds) {
    return seconds.stream().mapToLong(Second::offered).sum();
  }

  private static double meanQuality(List<Second> seconds) {
    return seconds.stream()
        .mapToDouble(Second::meanQuality)
        .filter(q -> !Double.isNaN(q))
        .average()
        .orElseThrow();
  }

  private static long secondsOverTarget(List<Second> seconds) {
    return seconds.stream().filter(s -> s.p90Nanos() > TARGET).count();
  }

  /** Oscillating near the target (the paper's Figure 12): under it on average, never far over. */
  private static void assertNearTarget(List<Second> seconds) {
    assertThat(seconds.stream().mapToLong(Second::p90Nanos).average().orElseThrow())
        .isLessThan(TARGET);
    assertThat(seconds).allMatch(x -> x.p90Nanos() < 1.5 * TARGET);
  }

  @Test
  void combinedDegradesThenRejectsAtMinimumThenRecoversToFullQuality() {
    DegradableService s = service("combined");
    s.run(8, 30); // light: 0-30 s
    s.run(30, 60); // a step the service can meet only degraded: 30-90 s
    s.run(200, 60); // more than even q_min can serve: 90-150 s
    s.run(5, 60); // the load falls: 150-210 s

    // Light load: full quality, nothing rejected, admission off.
    List<Second> light = s.seconds(0, 30);
    assertThat(rejected(light)).isZero();
    assertThat(light).allMatch(x -> near(x.meanQuality(), 1.0) && !x.admissionEnabled());

    // The step lowers quality until the target is met, without rejecting anybody.
    List<Second> step = s.seconds(30, 90);
    assertThat(rejected(step)).isZero();
    assertThat(step.get(0).meanQuality()).isCloseTo(1.0, within(1e-9));
    assertThat(step.get(1).p90Nanos()).isGreaterThan(TARGET);
    List<Second> settled = s.seconds(60, 90);
    assertThat(meanQuality(settled)).isBetween(0.3, 0.6);
    assertNearTarget(settled);
    assertThat(settled).allMatch(x -> x.meanQuality() > 0.2 && !x.admissionEnabled());

    // Beyond what q_min serves: quality sits at q_min, admission comes on, rejections begin
    // and hold the target.
    List<Second> spike = s.seconds(90, 150);
    assertThat(rounds).anyMatch(r -> r.action() == QualityRound.Action.ADMISSION_ON);
    List<Second> spikeSettled = s.seconds(120, 150);
    assertThat(spikeSettled).allMatch(x -> near(x.meanQuality(), 0.2) && x.admissionEnabled());
    assertThat(rejected(spikeSettled)).isGreaterThan(offered(spikeSettled) / 2);
    // Near the target: the admission controller admits about 50/s (the paper's controller,
    // judging stale samples, cut to 11/s and was still climbing back at 150 s: ~35/s over
    // 120-150 s and never over the target there). Its additive increase then probes above what
    // holds the target, about every 15 s here, and the one cut that follows brings it back:
    // about three seconds over per probe, on average under the target, none past twice it.
    assertThat((offered(spikeSettled) - rejected(spikeSettled)) / 30.0)
        .as("admitted per second, 120-150 s")
        .isGreaterThan(45.0);
    assertThat(secondsOverTarget(spikeSettled)).isLessThanOrEqualTo(6);
    assertThat(spikeSettled.stream().mapToLong(Second::p90Nanos).average().orElseThrow())
        .isLessThan(TARGET);
    assertThat(spikeSettled).allMatch(x -> x.p90Nanos() < 2 * TARGET);
    assertThat(rejected(spike)).isPositive();

    // The load falls: rejections stop and quality climbs back to 1.
    List<Second> after = s.seconds(150, 210);
    int lastRejecting = -1;
    for (int i = 0; i < after.size(); i++) {
      if (after.get(i).rejected() > 0) {
        lastRejecting = i;
      }
    }
    assertThat(lastRejecting).isLessThan(10);
    assertThat(after.get(after.size() - 1).meanQuality()).isCloseTo(1.0, within(1e-9));
    assertThat(s.seconds(200, 210)).allMatch(x -> x.rejected() == 0 && !x.admissionEnabled());
    assertThat(secondsOverTarget(s.seconds(160, 210))).isZero();
  }

  @Test
  void aloneServesEveryoneAndDriftsAboveTheTargetAtExtremeLoad() {
    DegradableService s = service("alone");
    s.run(8, 30);
    s.run(30, 60);
    s.run(200, 60);
    s.run(5, 60);

    assertThat(rejected(s.seconds)).isZero();
    assertThat(rounds).noneMatch(r -> r.action() == QualityRound.Action.ADMISSION_ON);
    // Degradation alone holds the moderate step.
    assertThat(meanQuality(s.seconds(60, 90))).isBetween(0.3, 0.6);
    assertNearTarget(s.seconds(60, 90));
    // The spike is beyond q_min: quality at the floor, p90 far above the target.
    List<Second> spike = s.seconds(120, 150);
    assertThat(spike).allMatch(x -> near(x.meanQuality(), 0.2));
    assertThat(secondsOverTarget(spike)).isEqualTo(30);
    // And it recovers when the load falls.
    assertThat(s.seconds.get(s.seconds.size() - 1).meanQuality()).isCloseTo(1.0, within(1e-9));
  }
}
