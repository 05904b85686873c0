package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.OverloadConfig;

class BuilderKeysTest {

  @Test
  void writesTheKeysAsAFileWouldSpellThem() {
    assertThat(BuilderKeys.target("search", Duration.ofMillis(500)))
        .containsExactly(Map.entry("endpoints.search.target", "500ms"));
    assertThat(BuilderKeys.paths("search", "/search/*", "/find"))
        .containsExactly(Map.entry("endpoints.search.paths", "/search/*,/find"));
    assertThat(BuilderKeys.match("buyer", "header", "X-Buyer"))
        .containsExactly(Map.entry("classes.buyer.match.header", "X-Buyer"));
    assertThat(BuilderKeys.trustedProxies("10.0.0.1", "192.168.0.0/16"))
        .containsExactly(Map.entry("trustedProxies", "10.0.0.1,192.168.0.0/16"));
    assertThat(BuilderKeys.requestClass("buyer", 2, RequestKind.TRANSACTION, 1.5))
        .containsExactly(
            Map.entry("classes.buyer.rank", "2"),
            Map.entry("classes.buyer.kind", "transaction"),
            Map.entry("classes.buyer.utility", "1.5"));
    assertThat(BuilderKeys.permits(8)).containsExactly(Map.entry("queue.permits", "8"));
  }

  @Test
  void anUnknownConditionIsRefusedAsTheSameKeyInAFile() {
    Map<String, String> keys = new HashMap<>(BuilderKeys.match("buyer", "host", "a.example"));
    assertThat(keys).containsExactly(Map.entry("classes.buyer.match.host", "a.example"));
    keys.put("classes.buyer.rank", "1");
    assertThatThrownBy(() -> OverloadConfig.of(keys))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("classes.buyer.match.host");
  }

  @Test
  void aBadTypedValueIsRefusedWithTheKeysOwnMessage() {
    Map<String, String> typed =
        new HashMap<>(BuilderKeys.requestClass("buyer", 1, RequestKind.BROWSING, -1));
    Map<String, String> written =
        Map.of(
            "classes.buyer.rank", "1",
            "classes.buyer.kind", "browsing",
            "classes.buyer.utility", "-1.0");
    assertThat(messageOf(typed))
        .isEqualTo(messageOf(written))
        .contains("classes.buyer.utility")
        .contains("must be a number >= 0");
    assertThat(messageOf(BuilderKeys.trustedProxies("10.0.0.1", "no-address")))
        .isEqualTo(messageOf(Map.of("trustedProxies", "10.0.0.1,no-address")));
  }

  private static String messageOf(Map<String, String> keys) {
    try {
      OverloadConfig.of(keys);
    } catch (OverloadConfigException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + keys);
  }
}
