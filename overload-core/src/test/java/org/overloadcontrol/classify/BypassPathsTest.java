package org.overloadcontrol.classify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BypassPathsTest {

  @Test
  void defaultsCoverTheUsualProbesAndNothingElse() {
    BypassPaths defaults = BypassPaths.defaults();
    assertThat(defaults.matches("/health")).isTrue();
    assertThat(defaults.matches("/health/liveness")).isTrue();
    assertThat(defaults.matches("/actuator/metrics/jvm.memory.used")).isTrue();
    assertThat(defaults.matches("/healthcare")).isFalse();
    assertThat(defaults.matches("/api/metrics")).isFalse();
    assertThat(defaults.matches("/")).isFalse();
  }

  @Test
  void noneAndAllAreAllowed() {
    assertThat(BypassPaths.parse("none").isEmpty()).isTrue();
    assertThat(BypassPaths.parse("/*").matches("/anything")).isTrue();
  }
}
