package org.overloadcontrol.base;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fallback's formatting follows SLF4J's for the shapes the library uses. */
class LogLineTest {

  @Test
  void placeholdersAreFilledInOrder() {
    assertThat(LogLine.of("{} of {} at {}", new Object[] {1, "b", null}).text())
        .isEqualTo("1 of b at null");
  }

  @Test
  void aTrailingThrowableNoPlaceholderTakesIsTheCause() {
    IllegalStateException cause = new IllegalStateException("x");
    LogLine line = LogLine.of("could not {}", new Object[] {"read", cause});
    assertThat(line.message()).isEqualTo("could not read");
    assertThat(line.thrown()).isSameAs(cause);
    assertThat(line.text()).isEqualTo("could not read: java.lang.IllegalStateException: x");
  }

  @Test
  void aThrowableAPlaceholderTakesIsText() {
    LogLine line = LogLine.of("failed: {}", new Object[] {new IllegalStateException("x")});
    assertThat(line.thrown()).isNull();
    assertThat(line.text()).isEqualTo("failed: java.lang.IllegalStateException: x");
  }

  @Test
  void missingArgumentsLeaveThePlaceholderAndArraysShowTheirElements() {
    assertThat(LogLine.of("{} and {}", new Object[] {new Object[] {"a", 2}}).text())
        .isEqualTo("[a, 2] and {}");
    assertThat(LogLine.of("no args {}", null).text()).isEqualTo("no args {}");
  }
}
