package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.bandwidth.BandwidthSettings;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.metrics.MetricsSettingsReader;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings;

/**
 * The shared typed readers of {@link ConfigSection}: every section reads a switch, a positive
 * duration and a count the same way and says what is wrong in the same words, naming the key.
 * The messages are asserted whole, so a change to them is deliberate.
 */
class ConfigSectionTest {

  @Test
  void aSwitchTakesTheSameWordsInEverySection() {
    for (String yes : new String[] {"true", "YES", "on"}) {
      assertThat(ConfigSection.bool(yes)).isTrue();
    }
    for (String no : new String[] {"false", "No", "OFF"}) {
      assertThat(ConfigSection.bool(no)).isFalse();
    }
    assertThatThrownBy(() -> ConfigSection.bool("1")).hasMessage("allowed: true, false");
  }

  @Test
  void aDurationMustBePositiveAndCountableInNanoseconds() {
    assertThat(ConfigSection.positiveDuration("500ms")).isEqualTo(500_000_000L);
    assertThatThrownBy(() -> ConfigSection.positiveDuration("0s"))
        .hasMessage("must be a positive duration such as 500ms");
    assertThatThrownBy(() -> ConfigSection.positiveDuration("PT9999999999999H"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too long");
  }

  @Test
  void aCountIsAWholeNumberOfAtLeastOne() {
    assertThat(ConfigSection.positiveInt("3")).isEqualTo(3);
    assertThatThrownBy(() -> ConfigSection.positiveInt("0")).hasMessage("must be >= 1");
    assertThatThrownBy(() -> ConfigSection.positiveInt("x")).hasMessage("not a whole number");
  }

  /** One bad value per section, read by the shared readers: the same words, the key named. */
  @Test
  void everySectionQuotesTheSharedReadersMessageWithItsKey() {
    assertThatThrownBy(() -> QueueSettings.from(OverloadConfig.of(Map.of("queue.maxWait", "0s"))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("queue.maxWait")
        .hasMessageContaining("must be a positive duration such as 500ms");
    assertThatThrownBy(
            () -> MetricsSettingsReader.read(ConfigSection.of("metrics", Map.of("period", "-1s"))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("metrics.period")
        .hasMessageContaining("must be a positive duration such as 500ms");
    assertThatThrownBy(
            () ->
                VirtualQueueSettings.from(
                    ConfigSection.of("virtualQueue", Map.of("enabled", "maybe"))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.enabled")
        .hasMessageContaining("allowed: true, false");
    assertThatThrownBy(
            () ->
                BandwidthSettings.from(
                    ConfigSection.of("bandwidth", Map.of("total", "100KB/s", "standbyLimit", "0"))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("bandwidth.standbyLimit")
        .hasMessageContaining("must be >= 1");
    assertThatThrownBy(
            () ->
                DegradeSettings.from(
                    OverloadConfig.of(
                        Map.of("endpoints.s.target", "1s", "degrade.endpoints.s.period", "0s"))))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("degrade.endpoints.s.period")
        .hasMessageContaining("must be a positive duration such as 500ms");
  }
}
