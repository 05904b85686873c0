package org.overloadcontrol.internal.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.OverloadEngine;

class DegradeSettingsTest {

  private static final long MS = 1_000_000L;

  private static DegradeSettings parse(String... keyValues) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      values.put(keyValues[i], keyValues[i + 1]);
    }
    return DegradeSettings.from(OverloadConfig.of(values));
  }

  @Test
  void nothingDegradesByDefault() {
    assertThat(parse().enabled()).isFalse();
    assertThat(parse("endpoints.search.target", "1s").endpoint("search")).isNull();
  }

  @Test
  void defaults() {
    EndpointDegradeSettings s =
        parse("endpoints.search.target", "2s", "degrade.endpoints.search.minQuality", "0.2")
            .endpoint("search");
    assertThat(s.targetNanos()).isEqualTo(2000 * MS);
    assertThat(s.minQuality()).isEqualTo(0.2);
    assertThat(s.mode()).isEqualTo(DegradeMode.COMBINED);
    assertThat(s.decrease()).isEqualTo(DecreaseRule.MULTIPLICATIVE);
    assertThat(s.step()).isEqualTo(0.2);
    assertThat(s.raiseStep()).isEqualTo(0.05);
    assertThat(s.raiseBelow()).isEqualTo(0.9);
    assertThat(s.periodNanos()).isEqualTo(1000 * MS);
  }

  @Test
  void sectionDefaultsApplyToEveryEndpointAndTheEndpointsOwnKeysWin() {
    DegradeSettings d =
        parse(
            "endpoints.a.target",
            "1s",
            "endpoints.b.target",
            "1s",
            "degrade.step",
            "0.1",
            "degrade.decrease",
            "additive",
            "degrade.period",
            "500ms",
            "degrade.endpoints.a.mode",
            "alone",
            "degrade.endpoints.b.step",
            "0.3",
            "degrade.endpoints.b.target",
            "300ms");
    assertThat(d.endpoint("a").step()).isEqualTo(0.1);
    assertThat(d.endpoint("a").decrease()).isEqualTo(DecreaseRule.ADDITIVE);
    assertThat(d.endpoint("a").mode()).isEqualTo(DegradeMode.ALONE);
    assertThat(d.endpoint("a").periodNanos()).isEqualTo(500 * MS);
    assertThat(d.endpoint("b").step()).isEqualTo(0.3);
    assertThat(d.endpoint("b").targetNanos()).isEqualTo(300 * MS);
    assertThat(d.endpoint("b").mode()).isEqualTo(DegradeMode.COMBINED);
  }

  @Test
  void badValuesNameTheKeyTheValueAndWhatIsAllowed() {
    assertThatThrownBy(
            () -> parse("endpoints.s.target", "1s", "degrade.endpoints.s.minQuality", "1.5"))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("degrade.endpoints.s.minQuality")
        .hasMessageContaining("1.5")
        .hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> parse("endpoints.s.target", "1s", "degrade.endpoints.s.step", "1"))
        .hasMessageContaining("degrade.endpoints.s.step")
        .hasMessageContaining("(0, 1)");
    assertThatThrownBy(
            () -> parse("endpoints.s.target", "1s", "degrade.endpoints.s.mode", "sometimes"))
        .hasMessageContaining("allowed: combined, alone");
    assertThatThrownBy(() -> parse("endpoints.s.target", "1s", "degrade.endpoints.s.period", "0s"))
        .hasMessageContaining("positive duration");
    assertThatThrownBy(() -> parse("degrade.endpoints.s.quality", "0.5"))
        .hasMessageContaining("degrade.endpoints.s.quality")
        .hasMessageContaining("unknown key");
    assertThatThrownBy(() -> parse("degrade.endpoints.s.minQuality", "0.5"))
        .hasMessageContaining("no response-time target");
  }

  @Test
  void anEngineWithADegradableEndpointNeedsAScheduler() {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of("endpoints.s.target", "1s", "degrade.endpoints.s.minQuality", "0.5"));
    assertThatThrownBy(() -> OverloadEngine.builder(config).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("degrade");
  }
}
