package org.overloadcontrol.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.Decision;
import org.overloadcontrol.engine.RequestTag;

/**
 * An endpoint is shedding when it refuses or expires requests, and overloaded only when it also
 * misses its target; episodes enter and leave with a quiet period.
 */
class OverloadWatchTest {

  /** Enough permits that requests left running never make a later one wait. */
  private final EngineDriver driver = new EngineDriver(Map.of("queue.permits", "100"));

  private final List<OverloadEvent> events = new ArrayList<>();
  private final OverloadWatch watch =
      new OverloadWatch(1_000_000_000L, 5_000_000_000L, events::add);

  private void check() {
    watch.check(driver.engine.endpoints(), driver.ticker.read());
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
    driver.engine.complete(tag, Outcome.COMPLETED, 0);
    driver.ticker.advance(Duration.ofSeconds(1));
    driver.arrive("search");
  }

  /** Three requests at once: the bucket (depth 2) has at most two tokens, so at least one is rejected. */
  private void burstOfThree() {
    driver.arrive("search");
    driver.arrive("search");
    driver.arrive("search");
  }

  private double p90Seconds() {
    return Readings.p90EstimateSeconds(
        driver.engine.endpoint("search").classes().get(0).controller());
  }

  @Test
  void shedsButIsNotOverloadedWhileItsP90IsUnderTarget() {
    servedIn(Duration.ofMillis(100));
    assertThat(p90Seconds()).isLessThan(1.0);
    driver.ticker.advance(Duration.ofSeconds(2));
    burstOfThree();
    check();

    assertThat(watch.shedding("search")).isTrue();
    assertThat(watch.overloaded("search")).as("p90 0.1 s under its 1 s target").isFalse();
    assertThat(events).isEmpty();
    assertThat(StatusJson.write(driver.engine, watch))
        .contains("\"name\":\"search\",\"overloaded\":false,\"shedding\":true");
  }

  @Test
  void aP90NotKnownYetIsNotAMiss() {
    burstOfThree();
    check();
    assertThat(p90Seconds()).isNaN();
    assertThat(watch.shedding("search")).isTrue();
    assertThat(watch.overloaded("search")).isFalse();
  }

  @Test
  void entersWhenItShedsWhileMissingItsTargetAndLeavesAfterFiveQuietSeconds() {
    servedIn(Duration.ofSeconds(3));
    assertThat(p90Seconds()).isGreaterThan(1.0);
    check();
    assertThat(events).isEmpty();
    assertThat(watch.overloaded("search")).isFalse();

    driver.ticker.advance(Duration.ofSeconds(1));
    burstOfThree();
    check();
    assertThat(watch.overloaded("search")).isTrue();
    assertThat(StatusJson.write(driver.engine, watch))
        .contains("\"name\":\"search\",\"overloaded\":true,\"shedding\":true");
    assertThat(events).hasSize(1);
    OverloadEvent entered = events.get(0);
    assertThat(entered.entered()).isTrue();
    assertThat(entered.endpoint().name()).isEqualTo("search");
    assertThat(entered.arrivalCount()).isEqualTo(3);
    // 3 s against 1 s cut the rate from 2/s to 2/3 (in proportion to the miss), and a bucket
    // then holds at most a round (1 s) of its rate: under one token, still owed after the
    // three served before, so all three are shed.
    assertThat(entered.shedCount()).isEqualTo(3);
    assertThat(entered.periodNanos()).isEqualTo(1_000_000_000L);

    for (int i = 0; i < 4; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      check();
    }
    assertThat(watch.overloaded("search")).as("4 s quiet").isTrue();
    driver.ticker.advance(Duration.ofSeconds(1));
    check();
    assertThat(watch.overloaded("search")).isFalse();
    assertThat(watch.shedding("search")).isFalse();
    assertThat(events).hasSize(2);
    OverloadEvent left = events.get(1);
    assertThat(left.entered()).isFalse();
    assertThat(left.quietNanos()).isEqualTo(5_000_000_000L);
    assertThat(left.periodNanos()).isEqualTo(5_000_000_000L);
    assertThat(left.shedCount()).isEqualTo(entered.shedCount());
  }

  @Test
  void isNotCalledOverloadedOnceItsP90FallsUnderTargetWithinAnEpisode() {
    servedIn(Duration.ofSeconds(3));
    driver.ticker.advance(Duration.ofSeconds(1));
    burstOfThree();
    check();
    assertThat(watch.overloaded("search")).isTrue();

    // Requests admitted after the cut answer in 100 ms: the controller restarts its estimate
    // from them (judgeOnFreshSamples), the episode goes on, but the endpoint is not overloaded.
    servedIn(Duration.ofMillis(100));
    assertThat(p90Seconds()).isLessThan(1.0);
    assertThat(watch.overloaded("search")).isFalse();
    assertThat(watch.shedding("search")).isTrue();
    assertThat(events).extracting(OverloadEvent::entered).containsExactly(true);
  }

  @Test
  void withoutATargetSheddingIsOverload() {
    EngineDriver plain =
        new EngineDriver(Map.of("classes.plain.rank", "0", "queue.classes.plain.capacity", "1"));
    OverloadWatch w = new OverloadWatch(1_000_000_000L, 5_000_000_000L, events::add);
    assertThat(plain.arrive("plain").decision()).isEqualTo(Decision.ADMIT);
    assertThat(plain.arrive("plain").decision()).isEqualTo(Decision.WAIT);
    plain.arrive("plain"); // its queue (capacity 1) is full: rejected
    w.check(plain.engine.endpoints(), plain.ticker.read());
    assertThat(w.overloaded("plain")).isTrue();
    assertThat(events).hasSize(1);
  }

  @Test
  void sheddingWhileMissingDuringTheEpisodeIsOneEpisode() {
    servedIn(Duration.ofSeconds(3));
    burstOfThree();
    check();
    for (int i = 0; i < 8; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      if (i % 3 == 0) {
        burstOfThree();
      }
      check();
    }
    assertThat(events).extracting(OverloadEvent::entered).containsExactly(true);
  }

  @Test
  void loggingListenerNamesTheEndpointAndItsControllers() {
    servedIn(Duration.ofSeconds(3));
    driver.ticker.advance(Duration.ofSeconds(1));
    burstOfThree();
    check();
    String detail = LoggingOverloadListener.controllers(events.get(0));
    assertThat(detail).matches("; search p90 3\\.0\\d\\d s vs target 1\\.000 s at 0\\.7/s");
    new LoggingOverloadListener().onOverloadChange(events.get(0)); // must not throw
  }
}
