package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When the engine holds the machine's cores saturated. */
class CoreSaturationTest {

  @Test
  void saturatedAfterASecondOfFullCoresAndFreeAgainOnlyWellUnder() {
    CoreSaturation cores = new CoreSaturation();
    assertThat(cores.saturated(0.7)).isFalse();
    // One full reading after idle ones is not saturation.
    assertThat(cores.saturated(1.0)).isFalse();
    boolean saturated = false;
    int readings = 1;
    while (!saturated) {
      saturated = cores.saturated(1.0);
      readings++;
    }
    assertThat(readings).isBetween(5, 15);
    // A reading or two at 0.85 keeps it: the average has to fall under 0.8.
    assertThat(cores.saturated(0.85)).isTrue();
    assertThat(cores.saturated(0.85)).isTrue();
    for (int i = 0; i < 30; i++) {
      cores.saturated(0.5);
    }
    assertThat(cores.saturated(0.5)).isFalse();
  }

  @Test
  void aLoadThePlatformDoesNotGiveLeavesItAsItWas() {
    CoreSaturation cores = new CoreSaturation();
    assertThat(cores.saturated(Double.NaN)).isFalse();
    for (int i = 0; i < 30; i++) {
      cores.saturated(1.0);
    }
    assertThat(cores.saturated(Double.NaN)).isTrue();
  }
}
