package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * Every switch reads the same words, whichever part of the configuration parses it: the core
 * keys, a section's keys, a controller parameter and an endpoint's key under a name the user
 * chose, so that what works for one key works for the next.
 */
class SwitchKeysTest {

  private static Settings parse(Map<String, String> values) {
    return Settings.parse(List.of(ConfigSource.of("test", values)));
  }

  @Test
  void everySwitchTakesTheSameWords() {
    for (String yes : new String[] {"true", "TRUE", "Yes", "on"}) {
      Settings s =
          parse(
              Map.of(
                  "enabled", yes,
                  "sessions.enabled", yes,
                  "controller.proportionalIncrease", yes,
                  "queue.endpoints.e.adaptive", yes));
      assertThat(s.config().enabled()).as(yes).isTrue();
      assertThat(s.sessions().enabled()).as(yes).isTrue();
      assertThat(
              s.config()
                  .settingsFor("e", s.config().defaultClass())
                  .parameters()
                  .proportionalIncrease())
          .as(yes)
          .isTrue();
      assertThat(s.queue().endpoint("e").adaptive()).as(yes).isTrue();
    }
    for (String no : new String[] {"false", "FALSE", "No", "off"}) {
      Settings s =
          parse(
              Map.of(
                  "metrics.enabled", no,
                  "controller.judgeOnFreshSamples", no,
                  "queue.endpoints.e.adaptive", no));
      assertThat(s.metrics().enabled()).as(no).isFalse();
      assertThat(
              s.config()
                  .settingsFor("e", s.config().defaultClass())
                  .parameters()
                  .judgeOnFreshSamples())
          .as(no)
          .isFalse();
      assertThat(s.queue().endpoint("e").adaptive()).as(no).isFalse();
    }
  }

  @Test
  void everySwitchRefusesOtherWordsInTheSameWords() {
    for (String key :
        new String[] {
          "enabled",
          "sessions.enabled",
          "controller.judgeOnFreshSamples",
          "queue.endpoints.e.adaptive"
        }) {
      assertThatThrownBy(() -> parse(Map.of(key, "1")))
          .as(key)
          .isInstanceOf(OverloadConfigException.class)
          .hasMessageContaining("'" + key + "'")
          .hasMessageEndingWith("allowed: true, false");
    }
  }
}
