package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.pipeline.KeyReference;
import org.overloadcontrol.internal.pipeline.Settings;

/**
 * What an IDE completes under {@code overload:}: the configuration metadata the build generated
 * into the starter's jar lists every key of the code's key tables with its default, every name in it
 * is a key the parser accepts once the Spring layer has read it, and the starter's own properties
 * are there.
 */
class ConfigurationMetadataTest {

  private static Map<String, JsonNode> byName;

  @BeforeAll
  static void read() throws IOException {
    byName = new LinkedHashMap<>();
    try (InputStream in =
        ConfigurationMetadataTest.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("the generated metadata on the class path").isNotNull();
      for (JsonNode p : new ObjectMapper().readTree(in).get("properties")) {
        byName.put(p.get("name").asText(), p);
      }
    }
  }

  @Test
  void everyKeyOfTheCodesTablesIsListedWithItsDefault() {
    List<String> missing = new ArrayList<>();
    int keys = 0;
    for (KeyTable table : KeyReference.tables()) {
      for (Key<?> key : table.keys()) {
        keys++;
        String name = ConfigurationMetadataGenerator.springName(table.fullName(key));
        JsonNode p = byName.get(name);
        if (p == null) {
          missing.add(table.fullName(key) + " (as " + name + ")");
          continue;
        }
        String literal = key.literalDefault();
        if (literal != null) {
          assertThat(p.path("defaultValue").asText()).as("default of %s", name).isEqualTo(literal);
        } else if (!key.defaultValue().isEmpty() && !key.defaultValue().equals("—")) {
          assertThat(p.get("description").asText())
              .as("default of %s, in words", name)
              .contains("default: " + ConfigurationMetadataGenerator.plain(key.defaultValue()));
        }
        assertThat(p.get("description").asText())
            .as("description of %s", name)
            .startsWith(ConfigurationMetadataGenerator.plain(key.meaning()));
      }
    }
    assertThat(missing).as("keys of the code's tables missing from the metadata").isEmpty();
    assertThat(byName).hasSize(keys + StarterKeyTable.KEYS.size());
    // Spot checks written out, so that a change on both sides of the generator cannot hide.
    assertThat(byName.get("overload.retry-after.max").get("defaultValue").asText())
        .isEqualTo("60s");
    assertThat(byName.get("overload.enabled").get("defaultValue").asBoolean()).isTrue();
    assertThat(byName.get("overload.classes.<c>.kind").get("defaultValue").asText())
        .isEqualTo("browsing");
    assertThat(byName.get("overload.queue.max-wait").get("defaultValue").asText()).isEqualTo("10s");
    assertThat(byName.get("overload.controller.alpha").get("defaultValue").asText())
        .isEqualTo("0.7");
    assertThat(byName.get("overload.virtual-queue.types.NAME")).isNotNull();
    assertThat(byName.get("overload.queue.permits").get("description").asText())
        .contains("default: none: no queueing");
  }

  @Test
  void everyListedNameIsAKeyTheParserAcceptsThroughTheSpringLayer() {
    assertThat(byName).hasSizeGreaterThan(100);
    List<String> unknown = new ArrayList<>();
    for (String name : byName.keySet()) {
      if (name.startsWith(SpringProperties.STARTER_PREFIX)) {
        continue;
      }
      String key =
          SpringProperties.relaxed(name.substring(SpringProperties.PREFIX.length()))
              .replace("<c>", "gold")
              .replace("<e>", "e")
              .replace("<g>", "g")
              .replace("<parameter>", "alpha")
              .replace("NAME", "t");
      Map<String, String> values = new LinkedHashMap<>();
      values.put("classes.gold.rank", "1");
      values.put(key, "x");
      try {
        Settings.parse(List.of(ConfigSource.of("test", values)))
            .requireKnownEndpoints(List.of(), Set.of("e"));
      } catch (OverloadConfigException e) {
        if (e.getMessage().contains("unknown key")) {
          unknown.add(name + " -> " + key);
        }
      }
    }
    assertThat(unknown).as("listed but unknown to the parser").isEmpty();
  }

  @Test
  void theStartersOwnPropertiesAreListed() {
    assertThat(byName)
        .containsKeys(
            "overload.spring.enabled",
            "overload.spring.health.enabled",
            "overload.spring.health.fail-when-shedding",
            "overload.spring.health.fail-when-overloaded",
            "overload.spring.status.enabled",
            "overload.spring.status.path",
            "overload.spring.metrics.enabled");
    assertThat(byName.get("overload.spring.status.path").get("defaultValue").asText())
        .isEqualTo("/overload");
    assertThat(byName.get("overload.spring.health.enabled").get("type").asText())
        .isEqualTo("java.lang.Boolean");
  }
}
