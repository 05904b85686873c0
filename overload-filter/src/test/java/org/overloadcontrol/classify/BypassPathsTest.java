package org.overloadcontrol.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.ConfigSection;

class BypassPathsTest {

  @Test
  void defaultsCoverTheUsualProbesAndNothingElse() {
    BypassPaths defaults = BypassPaths.from(ConfigSection.empty("bypass"));
    assertThat(defaults.matches("/health")).isTrue();
    assertThat(defaults.matches("/health/liveness")).isTrue();
    assertThat(defaults.matches("/actuator/metrics/jvm.memory.used")).isTrue();
    assertThat(defaults.matches("/healthcare")).isFalse();
    assertThat(defaults.matches("/api/metrics")).isFalse();
    assertThat(defaults.matches("/")).isFalse();
  }

  @Test
  void noneAndAllAreAllowed() {
    assertThat(BypassPaths.from(ConfigSection.of("bypass", Map.of("paths", "none"))).isEmpty())
        .isTrue();
    assertThat(BypassPaths.from(ConfigSection.of("bypass", Map.of("paths", "/*")))
        .matches("/anything")).isTrue();
  }
}
