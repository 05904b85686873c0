package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * Every transition of an endpoint's state on the fake clock: healthy, limiting (waits, a missed
 * target), degraded (a lowered quality), shedding (any refusal, whatever the p90), the most
 * severe winning, each left a full window (5 s) after its cause was last seen.
 */
class OverloadWatchTest {

  /** Enough permits that requests left running never make a later one wait. */
  private final EngineDriver driver = new EngineDriver(Map.of("queue.permits", "100"));

  private final List<StateChange> changes = new ArrayList<>();
  private final OverloadWatch watch =
      new OverloadWatch(1_000_000_000L, 5_000_000_000L, changes::add);

  private void check() {
    check(driver);
  }

  private void check(EngineDriver d) {
    watch.check(d.engine.endpoints(), d.ticker.read());
  }

  /** Checks once a second for {@code seconds} seconds with no traffic. */
  private void quietFor(int seconds) {
    for (int i = 0; i < seconds; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      check();
    }
  }

  /**
   * One "search" request served in {@code responseTime}, then an arrival a second later: a
   * round is due by time (1 s) at that arrival, and its p90 is that response time (search's
   * target is 1 s). The requests around it are left running.
   */
  private void servedIn(Duration responseTime) {
    driver.arrive("search"); // creates the controller if it is not there yet
    driver.ticker.advance(Duration.ofSeconds(1));
    RequestTag tag = driver.arrive("search"); // a round by time, without samples
    assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
    driver.ticker.advance(responseTime);
    driver.engine.settle(tag, Outcome.COMPLETED, 0);
    driver.ticker.advance(Duration.ofSeconds(1));
    driver.arrive("search");
  }

  /**
   * {@code n} searches at once: the bucket (depth 2) admits at most two, served in 50 ms; the
   * rest are refused.
   */
  private void burst(EngineDriver d, int n) {
    List<RequestTag> admitted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RequestTag tag = d.arrive("search");
      if (tag.decision() == Decision.ADMIT) {
        admitted.add(tag);
      }
    }
    d.ticker.advance(Duration.ofMillis(50));
    admitted.forEach(tag -> d.engine.settle(tag, Outcome.COMPLETED, 0));
  }

  private double p90Seconds() {
    return Readings.p90EstimateSeconds(driver.engine.endpoint("search").classes().get(0).p90());
  }

  private List<String> transitions() {
    return changes.stream().map(c -> c.from().word() + " -> " + c.to().word()).toList();
  }

  @Test
  void servedUnderItsTargetItIsHealthy() {
    servedIn(Duration.ofMillis(100));
    check();
    assertThat(watch.state("search")).isEqualTo(EndpointState.HEALTHY);
    assertThat(watch.state("never-seen")).isEqualTo(EndpointState.HEALTHY);
    assertThat(changes).isEmpty();
    assertThat(StatusJson.write(driver.engine, watch))
        .contains("\"states\":{\"healthy\":1,\"limiting\":0,\"degraded\":0,\"shedding\":0}")
        .contains("\"name\":\"search\",\"state\":\"healthy\",\"refusedShare\":0");
  }

  /** Issue 32: 85–99 % refused under a p90 far below target read "0 overloaded" and "left". */
  @Test
  void mostRequestsRefusedUnderAP90FarBelowTargetIsShedding() {
    servedIn(Duration.ofMillis(100));
    check();
    driver.ticker.advance(Duration.ofSeconds(1));
    burst(driver, 20);
    check();

    assertThat(p90Seconds()).as("p90 under its 1 s target").isLessThan(1.0);
    StateReading r = watch.reading("search");
    assertThat(r.state()).isEqualTo(EndpointState.SHEDDING);
    assertThat(r.refused()).isEqualTo(18);
    assertThat(r.refusedShare()).isBetween(0.85, 0.99);
    assertThat(transitions()).containsExactly("healthy -> shedding");
    assertThat(LoggingStateListener.line(changes.get(0)))
        .isEqualTo(
            "overload-control: endpoint 'search' is now shedding, was healthy (86 % refused"
                + " over 2.1 s; search p90 100 ms of 1000 ms target)");
    assertThat(StatusJson.write(driver.engine, watch))
        .contains("\"states\":{\"healthy\":0,\"limiting\":0,\"degraded\":0,\"shedding\":1}")
        .contains("\"name\":\"search\",\"state\":\"shedding\",\"refusedShare\":0.857");
    new LoggingStateListener().onStateChange(changes.get(0)); // must not throw
  }

  @Test
  void leavesSheddingAWindowAfterItsLastRefusalAndDoesNotFlapInBetween() {
    servedIn(Duration.ofMillis(100));
    check();
    for (int i = 0; i < 8; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      if (i % 2 == 0) {
        burst(driver, 5); // a refusal every other second: one state throughout
      }
      check();
      assertThat(watch.state("search")).isEqualTo(EndpointState.SHEDDING);
    }
    // The last burst was at i = 6, a second before the last check.
    quietFor(3);
    assertThat(watch.state("search"))
        .as("4 s since the last refusal")
        .isEqualTo(EndpointState.SHEDDING);
    quietFor(1);
    assertThat(watch.state("search")).isEqualTo(EndpointState.HEALTHY);
    assertThat(watch.reading("search").refusedShare()).isZero();
    assertThat(transitions()).containsExactly("healthy -> shedding", "shedding -> healthy");
    assertThat(LoggingStateListener.line(changes.get(1)))
        .startsWith(
            "overload-control: endpoint 'search' is now healthy, was shedding (nothing refused"
                + " over 5.0 s;");
  }

  @Test
  void theShareIsTheWindowsNotTheTimeSinceStart() {
    servedIn(Duration.ofMillis(100));
    check();
    driver.ticker.advance(Duration.ofSeconds(1));
    burst(driver, 20); // 18 of 20 refused
    check();
    // Then five served, 0.6 s apart (the bucket refills 1.2 tokens between them), and a burst
    // of three: the first burst is out of the window by the check.
    quietFor(4);
    for (int i = 0; i < 5; i++) {
      driver.ticker.advance(Duration.ofMillis(600));
      RequestTag tag = driver.arrive("search");
      assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
      driver.engine.settle(tag, Outcome.COMPLETED, 0);
    }
    burst(driver, 3);
    check();
    StateReading r = watch.reading("search");
    assertThat(r.state()).isEqualTo(EndpointState.SHEDDING);
    assertThat(r.answered()).isEqualTo(8);
    assertThat(r.refused()).isBetween(1L, 2L);
    assertThat(r.refusedShare()).isEqualTo(r.refused() / 8.0);
  }

  @Test
  void aRequestWaitingForAPermitIsLimitingUntilAWindowAfterTheWait() {
    EngineDriver onePermit = new EngineDriver();
    RequestTag running = onePermit.arrive("search");
    assertThat(running.decision()).isEqualTo(Decision.ADMIT);
    RequestTag waiting = onePermit.arrive("search");
    assertThat(waiting.decision()).isEqualTo(Decision.WAIT);
    check(onePermit);
    assertThat(watch.state("search")).isEqualTo(EndpointState.LIMITING);

    onePermit.ticker.advance(Duration.ofMillis(100));
    onePermit.engine.settle(running, Outcome.COMPLETED, 0); // the waiter runs
    onePermit.ticker.advance(Duration.ofMillis(100));
    onePermit.engine.settle(waiting, Outcome.COMPLETED, 0);
    for (int i = 0; i < 4; i++) {
      onePermit.ticker.advance(Duration.ofSeconds(1));
      check(onePermit);
    }
    assertThat(watch.state("search")).isEqualTo(EndpointState.LIMITING);
    onePermit.ticker.advance(Duration.ofSeconds(1));
    check(onePermit);
    assertThat(watch.state("search")).isEqualTo(EndpointState.HEALTHY);
    assertThat(transitions()).containsExactly("healthy -> limiting", "limiting -> healthy");
  }

  @Test
  void aP90OverTargetWithNothingRefusedIsLimiting() {
    servedIn(Duration.ofSeconds(3));
    assertThat(p90Seconds()).isGreaterThan(1.0);
    check();
    assertThat(watch.reading("search").refused()).isZero();
    assertThat(watch.state("search")).isEqualTo(EndpointState.LIMITING);
  }

  @Test
  void aP90NotKnownYetIsNotAMiss() {
    driver.arrive("search");
    check();
    assertThat(p90Seconds()).isNaN();
    assertThat(watch.state("search")).isEqualTo(EndpointState.HEALTHY);
  }

  @Test
  void sheddingWinsOverLimiting() {
    servedIn(Duration.ofSeconds(3));
    check();
    driver.ticker.advance(Duration.ofSeconds(1));
    burst(driver, 3);
    check();
    assertThat(watch.state("search")).isEqualTo(EndpointState.SHEDDING);
    assertThat(transitions()).containsExactly("healthy -> limiting", "limiting -> shedding");
  }

  @Test
  void aLoweredQualityIsDegradedAndSheddingWinsOverIt() {
    EngineDriver degrading =
        new EngineDriver(
            Map.of(
                "queue.classes.search.capacity", "1",
                "degrade.endpoints.search.minQuality", "0.3",
                "degrade.endpoints.search.target", "1s"));
    // A 3 s response against the 1 s target: the next quality period cuts to 0.8.
    RequestTag slow = degrading.arrive("search");
    degrading.ticker.advance(Duration.ofSeconds(3));
    degrading.engine.settle(slow, Outcome.COMPLETED, 0);
    degrading.advance(Duration.ofMillis(1100));
    assertThat(degrading.engine.endpoint("search").quality()).isLessThan(1.0);
    check(degrading);
    assertThat(watch.state("search")).isEqualTo(EndpointState.DEGRADED);

    // Degradation turns the token bucket off while quality can still fall, but the one permit
    // and a queue of one still refuse: one runs, one waits, eight are refused.
    degrading.ticker.advance(Duration.ofSeconds(1));
    burst(degrading, 10);
    check(degrading);
    assertThat(watch.state("search")).isEqualTo(EndpointState.SHEDDING);

    for (int i = 0; i < 5; i++) {
      degrading.ticker.advance(Duration.ofSeconds(1));
      check(degrading);
    }
    assertThat(degrading.engine.endpoint("search").quality()).isLessThan(1.0);
    assertThat(watch.state("search")).isEqualTo(EndpointState.DEGRADED);
    assertThat(transitions())
        .containsExactly("healthy -> degraded", "degraded -> shedding", "shedding -> degraded");
    assertThat(LoggingStateListener.line(changes.get(0))).contains("; quality 0.80");
  }

  @Test
  void everyStateIsCountedInTheSummaryEvenAtZero() {
    assertThat(watch.counts(List.of()))
        .containsOnlyKeys(EndpointState.values())
        .allSatisfy((s, n) -> assertThat(n).isZero());
  }

  @Test
  void percentagesNeverRoundARefusalAwayNorAnAnswerToAll() {
    assertThat(LoggingStateListener.percent(0.93)).isEqualTo("93 %");
    assertThat(LoggingStateListener.percent(0.004)).isEqualTo("0.4 %");
    assertThat(LoggingStateListener.percent(0.9996)).isEqualTo("99.9 %");
    assertThat(LoggingStateListener.percent(1.0)).isEqualTo("100 %");
    assertThat(LoggingStateListener.percent(0.0)).isEqualTo("0 %");
  }
}
