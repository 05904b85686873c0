package org.overloadcontrol.internal.bandwidth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.OverloadConfig;

class BandwidthSettingsTest {

  static BandwidthSettings parse(String... keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return BandwidthSettings.from(ConfigSection.of("bandwidth", m));
  }

  @Test
  void shapedPathsCoverEveryFormOfTheirPaths() {
    // Issue 33, item 5: a servlet on /images/logo/* also serves /images/logo/ and its forms.
    BandwidthSettings s =
        parse(
            "total", "100KB/s",
            "groups.a.share", "50",
            "groups.a.match.client", "10.0.0.0/8",
            "paths", "/images/logo");
    for (String form : java.util.List.of("/images/logo", "/images/logo/", "/images//logo;v=2")) {
      assertThat(s.shapes(form)).as(form).isTrue();
    }
    assertThat(s.shapes("/images/logos")).isFalse();
  }

  @Test
  void readsTheSectionFromTheWholeConfiguration() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("bandwidth.total", "100KB/s");
    m.put("bandwidth.groups.a.share", "10%");
    m.put("bandwidth.groups.a.match.client", "10.0.0.0/8, 192.0.2.7");
    m.put("bandwidth.groups.b.share", "40");
    m.put("bandwidth.groups.b.match.header", "X-Tenant=gold");
    m.put("bandwidth.groups.c.share", "0%");
    m.put("bandwidth.groups.c.match.cookie", "plan=free");
    m.put("bandwidth.alpha", "0.1");
    m.put("bandwidth.managerPeriod", "1s");
    m.put("bandwidth.standbyLimit", "8");
    BandwidthSettings s = BandwidthSettings.from(OverloadConfig.of(m).section("bandwidth"));
    assertThat(s.enabled()).isTrue();
    assertThat(s.totalBytesPerSecond()).isEqualTo(100_000);
    assertThat(s.groups()).extracting(ClientGroup::name).containsExactly("a", "b", "c");
    assertThat(s.groups().get(0).allocatedBytesPerSecond()).isEqualTo(10_000);
    assertThat(s.groups().get(2).isRejected()).isTrue();
    assertThat(s.alpha()).isEqualTo(0.1);
    assertThat(s.managerPeriodNanos()).isEqualTo(1_000_000_000L);
    assertThat(s.standbyLimit()).isEqualTo(8);
    assertThat(s.measure()).isEqualTo(Measure.THROUGHPUT);
  }

  @Test
  void defaultsAreThePapers() {
    BandwidthSettings s =
        parse("total", "1MB/s", "groups.a.share", "50%", "groups.a.match.client", "10.0.0.1");
    assertThat(s.alpha()).isBetween(0.05, 0.30);
    assertThat(s.managerPeriodNanos()).isBetween(500_000_000L, 1_000_000_000L);
  }

  @Test
  void anEmptySectionDisablesShaping() {
    assertThat(BandwidthSettings.from(ConfigSection.empty("bandwidth")).enabled()).isFalse();
  }

  @Test
  void rateUnits() {
    assertThat(ByteRates.parseBytesPerSecond("100KB/s")).isEqualTo(100_000);
    assertThat(ByteRates.parseBytesPerSecond("1.5 MB/s")).isEqualTo(1_500_000);
    assertThat(ByteRates.parseBytesPerSecond("2KiB/s")).isEqualTo(2048);
    assertThat(ByteRates.parseBytesPerSecond("8kbit/s")).isEqualTo(1000);
    assertThat(ByteRates.parseBytesPerSecond("100Mbit/s")).isEqualTo(12_500_000);
    assertThatThrownBy(() -> ByteRates.parseBytesPerSecond("100")).hasMessageContaining("100KB/s");
    assertThatThrownBy(() -> ByteRates.parseBytesPerSecond("0KB/s"))
        .hasMessageContaining("positive");
  }

  @Test
  void errorsNameTheKeyAndWhatIsAllowed() {
    assertThatThrownBy(
            () ->
                parse("total", "100", "groups.a.share", "10%", "groups.a.match.client", "10.0.0.1"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("bandwidth.total")
        .hasMessageContaining("'100'")
        .hasMessageContaining("KB/s");
    assertThatThrownBy(() -> parse("groups.a.share", "10%", "groups.a.match.client", "10.0.0.1"))
        .hasMessageContaining("bandwidth.total")
        .hasMessageContaining("required");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "60%",
                    "groups.a.match.client",
                    "10.0.0.1",
                    "groups.b.share",
                    "50%",
                    "groups.b.match.client",
                    "10.0.0.2"))
        .hasMessageContaining("add up to 110")
        .hasMessageContaining("100 %");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "150%",
                    "groups.a.match.client",
                    "10.0.0.1"))
        .hasMessageContaining("groups.a.share");
    assertThatThrownBy(() -> parse("total", "1MB/s", "groups.a.match.client", "10.0.0.1"))
        .hasMessageContaining("has no share");
    assertThatThrownBy(() -> parse("total", "1MB/s", "groups.a.share", "10%"))
        .hasMessageContaining("matches no request");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "10%",
                    "groups.a.match.client",
                    "example.com"))
        .hasMessageContaining("match.client")
        .hasMessageContaining("not an IP address");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "10%",
                    "groups.a.match.client",
                    "10.0.0.1",
                    "alpha",
                    "1.5"))
        .hasMessageContaining("bandwidth.alpha")
        .hasMessageContaining("0.05");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "10%",
                    "groups.a.match.client",
                    "10.0.0.1",
                    "groups.a.weight",
                    "3"))
        .hasMessageContaining("unknown key")
        .hasMessageContaining("groups.a.weight");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "10%",
                    "groups.a.match.client",
                    "10.0.0.1",
                    "defaultGroup",
                    "z"))
        .hasMessageContaining("no group 'z'");
    assertThatThrownBy(
            () ->
                parse(
                    "total",
                    "1MB/s",
                    "groups.a.share",
                    "10%",
                    "groups.a.match.client",
                    "10.0.0.1",
                    "managerPeriod",
                    "1s",
                    "cacheExpiry",
                    "1s"))
        .hasMessageContaining("twice managerPeriod");
  }

  @Test
  void theDefaultGroupMayHaveNoRule() {
    BandwidthSettings s =
        parse("total", "1MB/s", "groups.rest.share", "10%", "defaultGroup", "rest");
    assertThat(s.defaultGroup()).map(ClientGroup::name).contains("rest");
  }
}
