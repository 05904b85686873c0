package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.metrics.MetricsSettings;

/** Who may read /overload/*: loopback, the allow list, or a role. */
class StatusAccessTest {

  private static final ConfigSection EMPTY = ConfigSection.empty("status");

  private static boolean direct(StatusAccess a, String address, String... roles) {
    return a.allows(address, address, false, Set.of(roles)::contains);
  }

  @Test
  void loopbackOnlyByDefault() {
    StatusAccess a = StatusAccess.from(EMPTY, null, null);
    assertThat(direct(a, "127.0.0.1")).isTrue();
    assertThat(direct(a, "127.8.9.10")).isTrue();
    assertThat(direct(a, "::1")).isTrue();
    assertThat(direct(a, "0:0:0:0:0:0:0:1")).isTrue();
    assertThat(direct(a, "10.0.0.7")).isFalse();
    assertThat(direct(a, "203.0.113.9")).isFalse();
    assertThat(direct(a, "2001:db8::1")).isFalse();
  }

  @Test
  void allowListFromConfigurationAndInitParamWins() {
    StatusAccess fromConfig =
        StatusAccess.from(
            ConfigSection.of("status", Map.of("allow", "10.1.0.0/16, 192.0.2.5")), null, null);
    assertThat(direct(fromConfig, "10.1.200.3")).isTrue();
    assertThat(direct(fromConfig, "192.0.2.5")).isTrue();
    assertThat(direct(fromConfig, "10.2.0.1")).isFalse();

    StatusAccess overridden =
        StatusAccess.from(
            ConfigSection.of("status", Map.of("allow", "10.1.0.0/16")), "198.51.100.0/24", null);
    assertThat(direct(overridden, "198.51.100.77")).isTrue();
    assertThat(direct(overridden, "10.1.0.1")).isFalse();
  }

  @Test
  void roleGrantsAccessFromAnywhere() {
    StatusAccess a =
        StatusAccess.from(ConfigSection.of("status", Map.of("role", "ops")), null, null);
    assertThat(direct(a, "203.0.113.9", "ops")).isTrue();
    assertThat(direct(a, "203.0.113.9", "shopper")).isFalse();
  }

  @Test
  void forwardedThroughAnUntrustedPeerIsNotLoopback() {
    StatusAccess a = StatusAccess.from(EMPTY, null, null);
    // A reverse proxy on the same host, not configured as trusted, forwards an outsider.
    assertThat(a.allows("127.0.0.1", "127.0.0.1", true, r -> false)).isFalse();
    // Through a trusted proxy the resolved client decides.
    assertThat(a.allows("10.0.0.2", "127.0.0.1", false, r -> false)).isTrue();
    assertThat(a.allows("10.0.0.2", "203.0.113.9", false, r -> false)).isFalse();
    StatusAccess proxyAllowed = StatusAccess.from(EMPTY, "10.0.0.2", null);
    assertThat(proxyAllowed.allows("10.0.0.2", "10.0.0.2", true, r -> false)).isTrue();
  }

  @Test
  void badEntriesAndKeysAreNamed() {
    assertThatThrownBy(
            () ->
                StatusAccess.from(
                    ConfigSection.of("status", Map.of("allow", "intranet.example")), null, null))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("status.allow")
        .hasMessageContaining("intranet.example");
    assertThatThrownBy(
            () ->
                StatusAccess.from(ConfigSection.of("status", Map.of("password", "x")), null, null))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("status.password");
    assertThatThrownBy(() -> StatusAccess.from(EMPTY, "10.0.0.0/33", null))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("allow");
  }

  @Test
  void metricsSettingsAreValidated() {
    MetricsSettings s =
        MetricsSettingsReader.read(
            ConfigSection.of(
                "metrics", Map.of("period", "500ms", "overloadQuietPeriod", "3s", "jmx", "false")));
    assertThat(s.periodNanos()).isEqualTo(500_000_000L);
    assertThat(s.overloadQuietNanos()).isEqualTo(3_000_000_000L);
    assertThat(s.jmx(true)).isFalse();
    assertThat(MetricsSettings.defaults().jmx(true)).isTrue();
    assertThat(MetricsSettings.defaults().jmx(false)).isFalse();
    assertThat(MetricsSettings.defaults().jmxDomain("/shop")).isEqualTo("org.overloadcontrol.shop");
    assertThat(MetricsSettings.defaults().jmxDomain("")).isEqualTo("org.overloadcontrol");
    assertThatThrownBy(
            () ->
                MetricsSettingsReader.read(
                    ConfigSection.of(
                        "metrics", Map.of("period", "2s", "overloadQuietPeriod", "1s"))))
        .hasMessageContaining("metrics.overloadQuietPeriod");
    assertThatThrownBy(
            () -> MetricsSettingsReader.read(ConfigSection.of("metrics", Map.of("jmx", "maybe"))))
        .hasMessageContaining("metrics.jmx")
        .hasMessageContaining("allowed: true, false");
  }
}
