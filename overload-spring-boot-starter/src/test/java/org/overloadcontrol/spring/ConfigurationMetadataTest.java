package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.ConfigSource;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.pipeline.Settings;

/**
 * What an IDE completes under {@code overload:}: the configuration metadata the build generated
 * into the starter's jar lists every key of README's key table with its default, every name in it
 * is a key the parser accepts once the Spring layer has read it, and the starter's own properties
 * are there.
 */
class ConfigurationMetadataTest {

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
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

  /** README's key table ("key | default | meaning", the one with {@code enabled}), row by row. */
  private static List<String[]> readmeKeyTable() throws IOException {
    List<String[]> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(Path.of("..", "README.md"))) {
      if (line.startsWith("| key | default | meaning |")) {
        inTable = true;
        continue;
      }
      if (inTable && !line.startsWith("|")) {
        if (!rows.isEmpty() && rows.stream().anyMatch(r -> r[0].equals("enabled"))) {
          break;
        }
        rows.clear();
        inTable = false;
      }
      if (inTable && !line.startsWith("|---")) {
        String[] cells = line.split("(?<!\\\\)\\|", -1);
        List<String> keys = new ArrayList<>();
        Matcher m = CODE.matcher(cells[1]);
        String base = null;
        while (m.find()) {
          String code = m.group(1);
          if (code.startsWith(".") && base != null) {
            keys.add(base.substring(0, base.lastIndexOf('.')) + code);
          } else {
            base = code;
            keys.add(code);
          }
        }
        String[] defaults = cells[2].trim().split(" / ");
        for (int i = 0; i < keys.size(); i++) {
          String d = defaults.length == keys.size() ? defaults[i] : cells[2].trim();
          rows.add(new String[] {keys.get(i), d.trim()});
        }
      }
    }
    assertThat(rows).as("README's key table").hasSizeGreaterThan(20);
    return rows;
  }

  @Test
  void everyKeyOfReadmesTableIsListedWithItsDefault() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String[] row : readmeKeyTable()) {
      String key = row[0];
      String shown = row[1];
      String name = ConfigurationMetadataGenerator.springName(key);
      JsonNode p = byName.get(name);
      if (p == null) {
        missing.add(key + " (as " + name + ")");
        continue;
      }
      String literal = ConfigurationMetadataGenerator.literal(shown);
      if (literal != null) {
        assertThat(p.path("defaultValue").asText()).as("default of %s", name).isEqualTo(literal);
      } else if (!shown.isEmpty()) {
        assertThat(p.get("description").asText())
            .as("default of %s, in words", name)
            .contains("default: " + ConfigurationMetadataGenerator.plain(shown));
      }
      assertThat(p.get("description").asText()).as("description of %s", name).isNotBlank();
    }
    assertThat(missing).as("README keys missing from the metadata").isEmpty();
    // Spot checks against the table, so that a parser change on both sides cannot hide.
    assertThat(byName.get("overload.retry-after.max").get("defaultValue").asText())
        .isEqualTo("60s");
    assertThat(byName.get("overload.enabled").get("defaultValue").asBoolean()).isTrue();
    assertThat(byName.get("overload.classes.<c>.kind").get("defaultValue").asText())
        .isEqualTo("browsing");
    assertThat(byName.get("overload.queue.max-wait").get("defaultValue").asText()).isEqualTo("10s");
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
