package org.overloadcontrol.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An endpoint enters overload when it sheds and leaves after a quiet period. */
class OverloadWatchTest {

  private final EngineDriver driver = new EngineDriver();
  private final List<OverloadEvent> events = new ArrayList<>();
  private final OverloadWatch watch = new OverloadWatch(1_000_000_000L, 5_000_000_000L,
      events::add);

  private void check() {
    watch.check(driver.engine.endpoints(), driver.ticker.read());
  }

  @Test
  void entersWhenItShedsAndLeavesAfterFiveQuietSeconds() {
    driver.arrive("search");
    check();
    assertThat(events).isEmpty();
    assertThat(watch.overloaded("search")).isFalse();

    driver.ticker.advance(Duration.ofSeconds(1));
    // The bucket (depth 2, 2/s) is full again: two requests get tokens and wait for the one
    // permit, the third finds no token and is rejected.
    driver.arrive("search");
    driver.arrive("search");
    driver.arrive("search");
    check();
    assertThat(watch.overloaded("search")).isTrue();
    assertThat(events).hasSize(1);
    OverloadEvent entered = events.get(0);
    assertThat(entered.entered()).isTrue();
    assertThat(entered.endpoint().name()).isEqualTo("search");
    assertThat(entered.arrivalCount()).isEqualTo(3);
    assertThat(entered.shedCount()).isEqualTo(1);
    assertThat(entered.periodNanos()).isEqualTo(1_000_000_000L);

    for (int i = 0; i < 4; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      check();
    }
    assertThat(watch.overloaded("search")).as("4 s quiet").isTrue();
    driver.ticker.advance(Duration.ofSeconds(1));
    check();
    assertThat(watch.overloaded("search")).isFalse();
    assertThat(events).hasSize(2);
    OverloadEvent left = events.get(1);
    assertThat(left.entered()).isFalse();
    assertThat(left.quietNanos()).isEqualTo(5_000_000_000L);
    assertThat(left.periodNanos()).isEqualTo(5_000_000_000L);
    assertThat(left.shedCount()).isEqualTo(entered.shedCount());
  }

  @Test
  void sheddingDuringTheEpisodeIsOneEpisode() {
    driver.arrive("search");
    driver.arrive("search");
    driver.arrive("search");
    check();
    for (int i = 0; i < 8; i++) {
      driver.ticker.advance(Duration.ofSeconds(1));
      if (i % 3 == 0) {
        driver.arrive("search");
        driver.arrive("search");
        driver.arrive("search");
      }
      check();
    }
    assertThat(events).extracting(OverloadEvent::entered).containsExactly(true);
  }

  @Test
  void loggingListenerNamesTheEndpointAndItsControllers() {
    driver.arrive("search");
    driver.arrive("search");
    driver.arrive("search");
    check();
    String detail = LoggingOverloadListener.controllers(events.get(0));
    assertThat(detail).isEqualTo("; search p90 unknown vs target 1.000 s at 2.0/s");
    new LoggingOverloadListener().onOverloadChange(events.get(0)); // must not throw
  }
}
