package org.overloadcontrol.internal.virtualqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.OverloadConfig;

class VirtualQueueSettingsTest {

  @Test
  void defaults() {
    VirtualQueueSettings s = VirtualQueueSettings.from(ConfigSection.empty("virtualQueue"));
    assertThat(s.enabled()).isFalse();
    assertThat(s.protects("/checkout")).isFalse();
    assertThat(s.capacityAuto()).isTrue();
    assertThat(s.maxWaitSeconds()).isEqualTo(300);
    assertThat(s.graceSeconds()).isEqualTo(10);
    assertThat(s.epoch()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.trainingEpochs()).isEqualTo(84);
    assertThat(s.replayCacheSize()).isEqualTo(100_000);
  }

  @Test
  void fullConfigurationThroughOverloadConfig() {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("virtualQueue.enabled", "true");
    v.put("virtualQueue.paths", "/checkout, /api/book/*");
    v.put("virtualQueue.capacity", "140");
    v.put("virtualQueue.maxWait", "2m");
    v.put("virtualQueue.grace", "1500ms");
    v.put("virtualQueue.keyEnv", "SHOP_QUEUE_KEYS");
    v.put("virtualQueue.types.book", "/api/book/*");
    v.put("virtualQueue.hardness.book", "4.2");
    VirtualQueueSettings s =
        VirtualQueueSettings.from(OverloadConfig.of(v).section("virtualQueue"));
    assertThat(s.protects("/checkout")).isTrue();
    assertThat(s.protects("/api/book/7")).isTrue();
    assertThat(s.protects("/catalog")).isFalse();
    assertThat(s.capacity()).isEqualTo(140);
    assertThat(s.maxWaitSeconds()).isEqualTo(120);
    assertThat(s.graceSeconds()).isEqualTo(2);
    assertThat(s.keyEnv()).isEqualTo("SHOP_QUEUE_KEYS");
    assertThat(s.typeOf("/api/book/7")).isEqualTo("book");
    assertThat(s.typeOf("/checkout")).isEqualTo(VirtualQueueSettings.DEFAULT_TYPE);
    assertThat(s.hardness()).containsEntry("book", 4.2);
  }

  @Test
  void errorsNameTheKeyAndValue() {
    assertError(Map.of("enabld", "true"), "virtualQueue.enabld", "unknown key");
    assertError(Map.of("enabled", "maybe"), "virtualQueue.enabled", "allowed: true, false");
    assertError(
        Map.of("enabled", "true"), "virtualQueue.enabled", "virtualQueue.paths is required");
    assertError(Map.of("paths", "checkout"), "virtualQueue.paths", "not a path pattern");
    assertError(Map.of("capacity", "-3"), "virtualQueue.capacity", "'auto' or a positive");
    assertError(Map.of("capacity", "lots"), "virtualQueue.capacity", "'auto' or a positive");
    assertError(Map.of("maxWait", "2h"), "virtualQueue.maxWait", "between 1s and 3600s");
    assertError(Map.of("maxWait", "30"), "virtualQueue.maxWait", "duration");
    assertError(Map.of("grace", "0s"), "virtualQueue.grace", "between 1s and 600s");
    assertError(Map.of("keyFile", "/a", "keyEnv", "B"), "virtualQueue.keyEnv", "not both");
    assertError(Map.of("hardness.book", "4"), "virtualQueue.hardness.book", "estimated");
    assertError(
        Map.of("capacity", "10", "hardness.book", "0"), "virtualQueue.hardness.book", "positive");
    assertError(Map.of("trainingEpochs", "2"), "virtualQueue.trainingEpochs", "from 5");
  }

  private static void assertError(Map<String, String> values, String key, String text) {
    assertThatThrownBy(() -> VirtualQueueSettings.from(ConfigSection.of("virtualQueue", values)))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'" + key + "'")
        .hasMessageContaining(text);
  }
}
