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
 * An endpoint under a concurrency limit: the status shows its group's limit and in-flight count
 * instead of a token rate; it is shedding once it refuses, whether or not its responses meet
 * their target, and limiting while its group is at the limit with nothing refused.
 */
class ConcurrencyStatusTest {

  /** "search" (target 1 s, so a waiter gives up after 0.5 s) under a limit of 1. */
  private final EngineDriver driver =
      new EngineDriver(
          Map.of(
              "admission.controller",
              "concurrency",
              "admission.maxLimit",
              "1",
              "queue.permits",
              "100"));

  private final List<StateChange> changes = new ArrayList<>();
  private final OverloadWatch watch =
      new OverloadWatch(1_000_000_000L, 5_000_000_000L, changes::add);

  /** Three requests one after another, each served in {@code responseTime}. */
  private void servedIn(Duration responseTime) {
    for (int i = 0; i < 3; i++) {
      RequestTag tag = driver.arrive("search");
      assertThat(tag.decision()).isEqualTo(Decision.ADMIT);
      driver.advance(responseTime);
      driver.engine.settle(tag, Outcome.COMPLETED, 0);
    }
    // The limit's window closes on the periodic task (ten windows without enough samples).
    driver.advance(Duration.ofSeconds(1));
  }

  /** One request holds the only permit, a second waits and gives up after 0.7 of the target. */
  private RequestTag shedOne() {
    RequestTag holder = driver.arrive("search");
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    RequestTag waiter = driver.arrive("search");
    assertThat(waiter.decision()).isEqualTo(Decision.WAIT);
    driver.advance(Duration.ofMillis(800));
    assertThat(waiter.outcome()).isEqualTo(Outcome.EXPIRED);
    watch.check(driver.engine.endpoints(), driver.ticker.read());
    return holder;
  }

  @Test
  void sheddingWhileItRefusesAndItsResponsesMissTheTarget() {
    servedIn(Duration.ofSeconds(3));
    shedOne();
    assertThat(watch.state("search")).isEqualTo(EndpointState.SHEDDING);
    assertThat(changes).extracting(StateChange::to).containsExactly(EndpointState.SHEDDING);
    assertThat(
            LoggingStateListener.detail(driver.engine.endpoint("search"), changes.get(0).reading()))
        .isEqualTo(
            "25 % refused over 1.0 s; search p90 3015 ms of 1000 ms target;"
                + " group 'default' limit 1, 1 in flight");
  }

  @Test
  void sheddingWhileItRefusesThoughItsResponsesMeetTheTarget() {
    servedIn(Duration.ofMillis(100));
    shedOne();
    assertThat(watch.state("search")).isEqualTo(EndpointState.SHEDDING);
    assertThat(watch.reading("search").refused()).isEqualTo(1);
  }

  @Test
  void limitingWhileTheGroupIsAtItsLimitWithNothingRefused() {
    servedIn(Duration.ofMillis(100));
    RequestTag holder = driver.arrive("search");
    assertThat(holder.decision()).isEqualTo(Decision.ADMIT);
    watch.check(driver.engine.endpoints(), driver.ticker.read());
    assertThat(watch.state("search")).isEqualTo(EndpointState.LIMITING);
  }

  @Test
  void theStatusShowsTheGroupsLimitAndInFlightCountNotATokenRate() {
    servedIn(Duration.ofMillis(100));
    shedOne();
    String json = StatusJson.write(driver.engine, watch);
    assertThat(json)
        .contains(
            "\"concurrency\":{\"group\":\"default\",\"limit\":1,"
                + "\"inFlight\":1,\"p90OfTarget\":0.1");
    assertThat(json).contains("\"admissionRate\":null");
    assertThat(json).contains("\"missShare\":0");
  }
}
