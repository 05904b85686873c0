package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.admission.ConcurrencyLimit;
import org.overloadcontrol.internal.config.AdmissionSettings.Controller;

/** The {@code admission.} keys: controllers, groups and the limit's tuning. */
class AdmissionSettingsTest {

  private static AdmissionSettings parse(Map<String, String> keys) {
    return AdmissionSettings.from(OverloadConfig.of(keys));
  }

  @Test
  void byDefaultEveryEndpointSharesOneConcurrencyLimit() {
    AdmissionSettings s = parse(Map.of());
    assertThat(s.groupOf("search")).isEqualTo(s.groupOf("browse"));
    assertThat(s.groupOf("search"))
        .isEqualTo(
            new AdmissionSettings.Group(
                AdmissionSettings.DEFAULT_GROUP, Controller.CONCURRENCY, 200, 200));
    assertThat(s.windowNanos()).isEqualTo(100_000_000L);
    assertThat(s.windowSamples()).isEqualTo(100);
    assertThat(s.setpoint()).isEqualTo(0.9);
    assertThat(s.maxWaitOfTarget()).isEqualTo(0.7);
    assertThat(s.idleHeadroom()).isEqualTo(ConcurrencyLimit.IDLE_HEADROOM_OFF);
  }

  @Test
  void anIdleHeadroomIsOffOrAtLeastOne() {
    assertThat(parse(Map.of("admission.idleHeadroom", "2")).idleHeadroom()).isEqualTo(2.0);
    assertThat(parse(Map.of("admission.idleHeadroom", "off")).idleHeadroom())
        .isEqualTo(ConcurrencyLimit.IDLE_HEADROOM_OFF);
    assertThatThrownBy(() -> parse(Map.of("admission.idleHeadroom", "0.5")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("admission.idleHeadroom")
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> parse(Map.of("admission.idleHeadroom", "twice")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("not a number");
  }

  @Test
  void groupsNameTheirEndpointsAndMayChooseTheirController() {
    AdmissionSettings s =
        parse(
            Map.of(
                "admission.maxLimit",
                "64",
                "admission.groups.db.endpoints",
                "search, browse",
                "admission.groups.pay.endpoints",
                "payment",
                "admission.groups.pay.controller",
                "rate",
                "admission.groups.pay.maxLimit",
                "8"));
    assertThat(s.groupOf("browse").name()).isEqualTo("db");
    assertThat(s.groupOf("browse").maxLimit()).isEqualTo(64);
    assertThat(s.groupOf("payment"))
        .isEqualTo(new AdmissionSettings.Group("pay", Controller.RATE, 8, 8));
    assertThat(s.groupOf("home").name()).isEqualTo(AdmissionSettings.DEFAULT_GROUP);
    assertThat(s.grouped("search")).isTrue();
    assertThat(s.grouped("home")).isFalse();
  }

  @Test
  void mistakesNameTheKeyAndTheValue() {
    assertThatThrownBy(() -> parse(Map.of("admission.controller", "aimd")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("admission.controller")
        .hasMessageContaining("'aimd'")
        .hasMessageContaining("concurrency, rate");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of(
                        "admission.groups.db.endpoints",
                        "a,b",
                        "admission.groups.cache.endpoints",
                        "b")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoint 'b' is already in group");
    assertThatThrownBy(() -> parse(Map.of("admission.groups.db.maxLimit", "5")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("admission.groups.db.endpoints");
    assertThatThrownBy(() -> parse(Map.of("admission.initialLimit", "300")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("admission.maxLimit");
    assertThatThrownBy(() -> parse(Map.of("admission.limit", "5")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("unknown key");
    assertThatThrownBy(() -> parse(Map.of("admission.setpoint", "1.5")))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("(0, 1]");
  }

  @Test
  void theDefaultCeilingLeavesTheContainerAFewThreads() {
    // Two in a hundred, at least two, never under one permit.
    assertThat(AdmissionSettings.ceilingFor(200)).isEqualTo(196);
    assertThat(AdmissionSettings.ceilingFor(500)).isEqualTo(490);
    assertThat(AdmissionSettings.ceilingFor(48)).isEqualTo(46);
    assertThat(AdmissionSettings.ceilingFor(8)).isEqualTo(6);
    assertThat(AdmissionSettings.ceilingFor(2)).isEqualTo(1);
  }
}
