package org.overloadcontrol.internal.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The saturated / not saturated hysteresis shared by the machine's and the process's cores. */
class SaturationTest {

  @Test
  void theFirstReadingIsTheAverageAndItHoldsBetweenTheTwoLevels() {
    Saturation s = new Saturation(0.8, 0.7);
    assertThat(s.average()).isNaN();
    assertThat(s.add(0.9, 0.5)).isTrue();
    assertThat(s.add(0.6, 0.5)).isTrue(); // 0.75: between the levels, still saturated
    assertThat(s.average()).isEqualTo(0.75);
    assertThat(s.add(0.6, 0.5)).isFalse(); // 0.675
  }

  @Test
  void forgettingStartsOverUnsaturated() {
    Saturation s = new Saturation(0.8, 0.7);
    s.add(1.0, 1.0);
    s.forget();
    assertThat(s.saturated()).isFalse();
    assertThat(s.average()).isNaN();
    assertThat(s.add(0.5, 0.1)).isFalse();
    assertThat(s.average()).isEqualTo(0.5);
  }

  @Test
  void theLowerLevelMustNotBeAboveTheUpper() {
    assertThatThrownBy(() -> new Saturation(0.7, 0.8)).isInstanceOf(IllegalArgumentException.class);
  }
}
