package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NumberWithUnitTest {

  @Test
  void splitsWhereTheNumberEndsAndTrimsTheUnit() {
    assertThat(NumberWithUnit.split("1.5 MiB", false, "x"))
        .isEqualTo(new NumberWithUnit(new BigDecimal("1.5"), "MiB"));
  }

  @Test
  void readsALeadingMinusOnlyWhenSigned() {
    assertThat(NumberWithUnit.split("-2s", true, "x").number()).isEqualByComparingTo("-2");
    assertThatThrownBy(() -> NumberWithUnit.split("-2s", false, "a rate")).hasMessage("not a rate");
  }

  @ParameterizedTest
  @ValueSource(strings = {"100", "KB", "1.2.3KB", ".KB", "-", ""})
  void refusesAMissingOrMalformedPart(String text) {
    assertThatThrownBy(() -> NumberWithUnit.split(text, true, "a size"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a size");
  }
}
