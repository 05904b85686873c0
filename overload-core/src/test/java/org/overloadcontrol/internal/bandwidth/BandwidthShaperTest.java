package org.overloadcontrol.internal.bandwidth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.ClassRule.NameValue;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.engine.FakeTicker;

class BandwidthShaperTest {

  static final long MS = 1_000_000L;
  static final long PERIOD = 500 * MS;

  final FakeTicker ticker = new FakeTicker(0);

  @BeforeEach
  void reset() {
    ticker.setNanos(0);
  }

  static GroupRule client(String cidr) {
    return new GroupRule(AddressMatcher.parse(List.of(cidr)), null, null);
  }

  static BandwidthSettings.Builder twoGroups() {
    return BandwidthSettings.builder(100_000)
        .alpha(0.5)
        .idleAlpha(0.5)
        .managerPeriod(Duration.ofMillis(500))
        .cacheExpiry(Duration.ofSeconds(60))
        .group("small", 20, client("10.1.0.0/16"))
        .group("large", 80, client("10.2.0.0/16"));
  }

  static RequestAttributes from(String address) {
    return TestRequest.get("/img", address).withHeaders(Map.of("X-Tenant", "gold"));
  }

  /**
   * Completes a response of {@code bytes} for a group at once: the request declares size 0, so
   * it is admitted without a delay and without occupying the group's lane.
   */
  void serve(BandwidthShaper shaper, ClientGroup g, long bytes) {
    ShapingDecision d = shaper.decide(g, 0);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.ADMIT);
    d.ticket().complete(bytes);
  }

  ClientGroup group(BandwidthShaper s, String name) {
    return s.settings().groups().stream()
        .filter(g -> g.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void groupsMatchByAddressInOrderThenTheDefault() {
    BandwidthSettings s =
        BandwidthSettings.builder(100_000)
            .group(
                "tenant",
                30,
                new GroupRule(AddressMatcher.none(), new NameValue("X-Tenant", "gold"), null))
            .group("net", 30, client("10.2.0.0/16"))
            .build();
    BandwidthShaper shaper = new BandwidthShaper(s, ticker);
    assertThat(shaper.groupOf(from("10.2.3.4")).name()).isEqualTo("tenant");
    BandwidthShaper shaper2 = new BandwidthShaper(twoGroups().build(), ticker);
    assertThat(shaper2.groupOf(from("10.2.3.4")).name()).isEqualTo("large");
    assertThat(shaper2.groupOf(from("192.0.2.1"))).isNull();
    assertThat(shaper2.decide(from("192.0.2.1"), 10_000).ticket()).isSameAs(BandwidthTicket.NONE);
  }

  @Test
  void aZeroShareGroupIsRefused() {
    BandwidthSettings s =
        BandwidthSettings.builder(100_000).group("blocked", 0, client("10.9.0.0/16")).build();
    ShapingDecision d = new BandwidthShaper(s, ticker).decide(from("10.9.0.1"), 10);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.REJECT);
    assertThat(d.status()).isEqualTo(403);
    assertThat(d.reason()).isEqualTo(ShapingDecision.ZERO_SHARE);
  }

  @Test
  void throughputIsAveragedPerManagerPeriod() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 10_000); // first request: the size is known, no one is measured yet
    ticker.advanceNanos(PERIOD);
    shaper.managerRound(); // 10 KB in 0.5 s = 20 KB/s, α = 0.5 → 10 KB/s
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond()).isCloseTo(10_000, within(1e-6));
  }

  @Test
  void idleGroupsDecayTowardsZero() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 10_000);
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    double before = shaper.snapshot().get(0).averageBytesPerSecond();
    ticker.advanceNanos(PERIOD);
    shaper.managerRound(); // no request, no completion since: idle → zero in with idleAlpha
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond())
        .isCloseTo(before * 0.5, within(1e-6));
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond())
        .isCloseTo(before * 0.25, within(1e-6));
  }

  @Test
  void theActiveFlagIsSetByEachRequestAndClearedByTheManager() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().build(), ticker);
    shaper.decide(group(shaper, "small"), 10_000);
    assertThat(shaper.snapshot().get(0).active()).isTrue();
    shaper.managerRound();
    assertThat(shaper.snapshot().get(0).active()).isFalse();
  }

  @Test
  void maxMeasuredStartsAtTheTotalAndTracksTheHighestMeasuredSum() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().alpha(1).build(), ticker);
    assertThat(shaper.maxMeasuredBytesPerSecond()).isEqualTo(100_000);
    serve(shaper, group(shaper, "small"), 30_000);
    serve(shaper, group(shaper, "large"), 40_000);
    ticker.advanceNanos(PERIOD);
    shaper.managerRound(); // 140 KB/s measured: the server is faster than B
    assertThat(shaper.maxMeasuredBytesPerSecond()).isCloseTo(140_000, within(1e-6));
    serve(shaper, group(shaper, "small"), 10_000);
    ticker.advanceNanos(PERIOD);
    shaper.managerRound(); // a lower sum does not lower Â
    assertThat(shaper.maxMeasuredBytesPerSecond()).isCloseTo(140_000, within(1e-6));
  }

  @Test
  void aGroupOverItsShareIsDelayedByEquation3WhileAnotherIsUnsatisfied() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().alpha(1).build(), ticker);
    ClientGroup small = group(shaper, "small");
    ClientGroup large = group(shaper, "large");
    serve(shaper, large, 50_000); // large: 100 KB/s measured, far above its 80
    ticker.advanceNanos(PERIOD);
    shaper.managerRound(); // Â becomes 100 KB/s (no change)
    shaper.decide(small, 0); // small is active and measured at 0 < 20: unsatisfaction
    ShapingDecision d = shaper.decide(large, 10_000);
    // (5): large at or above its share gets d = 80 KB/s; delay = (1/80k − 1/100k)·10k = 25 ms
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.DELAY);
    assertThat(d.delayNanos()).isCloseTo(25 * MS, within(1_000L));
    // (5) for small below its share: d = 2·20k − 0 = 40 KB/s; delay (1/40k − 1/100k)·10k
    ShapingDecision s = shaper.decide(small, 10_000);
    assertThat(s.delayNanos()).isCloseTo(150 * MS, within(1_000L));
  }

  @Test
  void withBandwidthToSpareNobodyIsDelayed() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().alpha(1).build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 25_000); // 50 KB/s, above its 20 %, alone
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    // (8): remaining 50 KB/s > 0, so small may have B − 0 = 100 KB/s = Â: no delay.
    assertThat(shaper.decide(small, 10_000).kind()).isEqualTo(ShapingDecision.Kind.ADMIT);
  }

  @Test
  void delayedResponsesOfAGroupFollowEachOtherAndTheStandbyLimitRefusesWith429() {
    BandwidthShaper shaper =
        new BandwidthShaper(twoGroups().alpha(1).standbyLimit(2).build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 50_000); // 100 KB/s: saturates B alone
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    // (8) remaining 0 → d = 20 KB/s; delay (1/20k − 1/100k)·10k = 400 ms; sending at Â 100 ms
    ShapingDecision first = shaper.decide(small, 10_000);
    ShapingDecision second = shaper.decide(small, 10_000);
    assertThat(first.delayNanos()).isCloseTo(400 * MS, within(1_000L));
    assertThat(second.delayNanos()).isCloseTo(900 * MS, within(1_000L)); // 400 + 100 + 400
    ShapingDecision third = shaper.decide(small, 10_000);
    assertThat(third.kind()).isEqualTo(ShapingDecision.Kind.REJECT);
    assertThat(third.status()).isEqualTo(429);
    assertThat(third.reason()).isEqualTo(ShapingDecision.STANDBY_FULL);
    assertThat(third.retryAfterNanos()).isGreaterThanOrEqualTo(1_000 * MS);
    first.ticket().delayEnded();
    first.ticket().delayEnded(); // idempotent: one place freed, not two
    assertThat(shaper.snapshot().get(0).delayedCount()).isEqualTo(1);
    assertThat(shaper.decide(small, 10_000).kind()).isEqualTo(ShapingDecision.Kind.DELAY);
    assertThat(shaper.decide(small, 10_000).kind()).isEqualTo(ShapingDecision.Kind.REJECT);
  }

  @Test
  void aDelayLongerThanMaxDelayIsRefused() {
    BandwidthShaper shaper =
        new BandwidthShaper(twoGroups().alpha(1).maxDelay(Duration.ofMillis(300)).build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 50_000);
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    ShapingDecision d = shaper.decide(small, 10_000); // would wait 400 ms
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.REJECT);
    assertThat(d.reason()).isEqualTo(ShapingDecision.DELAY_TOO_LONG);
    assertThat(d.status()).isEqualTo(429);
  }

  @Test
  void unknownSizesUseTheGroupsRecentMean() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().alpha(1).build(), ticker);
    ClientGroup small = group(shaper, "small");
    ShapingDecision first = shaper.decide(small, -1);
    assertThat(first.kind()).isEqualTo(ShapingDecision.Kind.ADMIT); // nothing known yet
    first.ticket().complete(50_000); // mean size now 50 KB, 100 KB/s measured
    ticker.advanceNanos(PERIOD);
    shaper.managerRound();
    // d = 20 KB/s, size 50 KB: (1/20k − 1/100k)·50k = 2 s
    assertThat(shaper.decide(small, -1).delayNanos()).isCloseTo(2_000 * MS, within(1_000L));
  }

  @Test
  void perRequestMeasureAveragesBytesOverResponseTimeIncludingTheDelay() {
    BandwidthShaper shaper =
        new BandwidthShaper(twoGroups().alpha(0.5).measure(Measure.PER_REQUEST).build(), ticker);
    ClientGroup small = group(shaper, "small");
    ShapingDecision d = shaper.decide(small, 0);
    ticker.advanceNanos(250 * MS);
    d.ticket().complete(10_000); // 40 KB/s perceived; α 0.5 → 20 KB/s
    assertThat(shaper.snapshot().get(0).averageBytesPerSecond()).isCloseTo(20_000, within(1e-6));
  }

  @Test
  void unusedGroupStateExpiresFromTheCacheAndTheCacheIsBounded() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().build(), ticker);
    ClientGroup small = group(shaper, "small");
    serve(shaper, small, 10_000);
    serve(shaper, group(shaper, "large"), 10_000);
    assertThat(shaper.trackedGroupCount()).isEqualTo(2);
    // The manager's reads must not keep an unused group alive.
    for (int i = 0; i < 121; i++) {
      ticker.advanceNanos(PERIOD);
      shaper.managerRound();
      if (i % 10 == 0) {
        shaper.decide(small, 10_000); // small keeps asking; large does not
      }
    }
    assertThat(shaper.trackedGroupCount()).isEqualTo(1);
    assertThat(shaper.snapshot().get(1).averageBytesPerSecond()).isZero();
    // Many distinct client addresses create no state: groups are the only keys.
    for (int i = 0; i < 10_000; i++) {
      shaper.decide(from("10.1." + (i / 250) + "." + (i % 250)), 1);
      shaper.decide(from("198.51.100." + (i % 250)), 1);
    }
    assertThat(shaper.trackedGroupCount()).isLessThanOrEqualTo(2);
  }

  @Test
  void aNewGroupCountsAsUnsatisfiedItselfAndPushesAtTwiceItsShare() {
    BandwidthShaper shaper = new BandwidthShaper(twoGroups().build(), ticker);
    // b̂ = 0 < b = 20 KB/s and active: (4) holds, (5) gives 2·20k − 0 = 40 KB/s.
    ShapingDecision d = shaper.decide(group(shaper, "small"), 10_000);
    assertThat(d.kind()).isEqualTo(ShapingDecision.Kind.DELAY);
    assertThat(d.delayNanos()).isCloseTo(150 * MS, within(1_000L));
  }
}
