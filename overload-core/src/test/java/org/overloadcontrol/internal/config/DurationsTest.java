package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "500ms,500000000",
    "1.5s,1500000000",
    "2m,120000000000",
    "250us,250000",
    "10ns,10",
    "1h,3600000000000",
    "PT0.5S,500000000",
    " 3 s ,3000000000"
  })
  void parses(String text, long nanos) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest
  @ValueSource(strings = {"500", "fast", "ms", "1.2.3s", "5 parsecs", ""})
  void refuses(String text) {
    assertThatThrownBy(() -> Durations.parse(text)).hasMessageContaining("500ms");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"PT9999999999999H", "PT2562048H", "9999999999999999999ms", "99999999999h"})
  void refusesWhatTheTickerCannotHoldInsteadOfOverflowing(String text) {
    // Before: an ArithmeticException later from toNanos, or a value quoted wrapped negative.
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too long");
  }

  @Test
  void aDurationIsWrittenInTheLargestUnitThatHoldsIt() {
    assertThat(Durations.format(Duration.ofSeconds(10))).isEqualTo("10s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(Durations.format(Duration.ofHours(1))).isEqualTo("1h");
    assertThat(Durations.format(Duration.ofNanos(250_000))).isEqualTo("250us");
    assertThat(Durations.format(Duration.ofNanos(7))).isEqualTo("7ns");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ns");
    for (Duration d :
        new Duration[] {
          Duration.ofMillis(1), Duration.ofSeconds(90), Duration.ofNanos(1_000_001)
        }) {
      assertThat(Durations.parse(Durations.format(d))).isEqualTo(d);
    }
  }
}
