package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ShopSettingsTest {

  private static final UnaryOperator<String> NONE = k -> null;

  @Test
  void defaultsAreScaleOneFourConnectionsThirtySeconds() {
    ShopSettings s = ShopSettings.read(NONE, NONE);
    assertThat(s).isEqualTo(new ShopSettings(1.0, 4, Duration.ofSeconds(30)));
    assertThat(s).isEqualTo(ShopSettings.defaults());
  }

  @Test
  void readsContextParamsAndSystemPropertiesWin() {
    Map<String, String> params =
        Map.of("shop.timeScale", "0.5", "shop.dbConnections", "8", "shop.dbWait", "2s");
    Map<String, String> props = Map.of("shop.timeScale", "0.1", "shop.dbWait", " ");
    ShopSettings s = ShopSettings.read(params::get, props::get);
    assertThat(s.timeScale()).isEqualTo(0.1);
    assertThat(s.dbConnections()).isEqualTo(8);
    // A blank system property does not hide the context-param.
    assertThat(s.dbWait()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void badValuesNameTheKeyAndTheValue() {
    assertThatThrownBy(() -> ShopSettings.read(Map.of("shop.timeScale", "fast")::get, NONE))
        .hasMessageContaining("shop.timeScale")
        .hasMessageContaining("'fast'");
    assertThatThrownBy(() -> ShopSettings.read(Map.of("shop.timeScale", "-1")::get, NONE))
        .hasMessageContaining("shop.timeScale");
    assertThatThrownBy(() -> ShopSettings.read(Map.of("shop.dbConnections", "0")::get, NONE))
        .hasMessageContaining("shop.dbConnections")
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> ShopSettings.read(Map.of("shop.dbConnections", "2.5")::get, NONE))
        .hasMessageContaining("shop.dbConnections")
        .hasMessageContaining("'2.5'");
    assertThatThrownBy(() -> ShopSettings.read(Map.of("shop.dbWait", "30")::get, NONE))
        .hasMessageContaining("shop.dbWait")
        .hasMessageContaining("'30'");
  }

  @Test
  void timeScaleZeroTurnsTheSimulatedWorkOff() {
    ShopSettings s = ShopSettings.read(Map.of("shop.timeScale", "0")::get, NONE);
    assertThat(ShopPage.PAYMENT.serviceTime(s.timeScale())).isZero();
  }
}
