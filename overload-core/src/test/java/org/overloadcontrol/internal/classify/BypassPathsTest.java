package org.overloadcontrol.internal.classify;

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
  void noFormOfAnotherPathBypasses() {
    // Jetty hands "/health;/../checkout" to the servlet of /* as "/health/../checkout", and
    // "/healthz/" may reach another servlet than "/healthz": both must stay controlled.
    BypassPaths defaults = BypassPaths.defaults();
    assertThat(defaults.matches("/health/../checkout")).isFalse();
    assertThat(defaults.matches("/actuator/health/../../checkout")).isFalse();
    assertThat(defaults.matches("/healthz/")).isFalse();
    assertThat(defaults.matches("/healthz;x")).isFalse();
    assertThat(defaults.matches("/health/x/../live")).isTrue();
    // An exact probe path written with a trailing slash still bypasses as written.
    assertThat(BypassPaths.parse("/healthz/").matches("/healthz/")).isTrue();
    assertThat(BypassPaths.parse("/healthz/").matches("/healthz")).isFalse();
  }

  @Test
  void noneAndAllAreAllowed() {
    assertThat(BypassPaths.parse("none").isEmpty()).isTrue();
    assertThat(BypassPaths.parse("/*").matches("/anything")).isTrue();
  }
}
