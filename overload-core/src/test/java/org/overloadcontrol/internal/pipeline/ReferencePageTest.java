package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigParser;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/**
 * The checked-in configuration reference (docs/reference.md) is the page the code's key tables
 * generate, so the page cannot drift from the parser; and the tables are the parser's: every key
 * they list is accepted, and every section the parser hands out has a table.
 */
class ReferencePageTest {

  private static final Path PAGE = Path.of("..", "docs", "reference.md");

  @Test
  void theCheckedInReferenceIsTheGeneratedOne() throws IOException {
    String generated = ReferencePage.render(KeyReference.tables());
    if (Boolean.getBoolean("reference.write")) {
      Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(PAGE))
        .as("%s exists; write it with: %s", PAGE, ReferencePage.REGENERATE)
        .isTrue();
    assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
        .as(
            "docs/reference.md is generated from the key tables in the code; regenerate it with"
                + " (from the project's root): %s",
            ReferencePage.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void everyKeyOfTheTablesIsOneTheParserAccepts() {
    List<String> refused = new ArrayList<>();
    for (KeyTable table : KeyReference.tables()) {
      for (Key<?> key : table.keys()) {
        String full = example(table.fullName(key));
        Map<String, String> values = new LinkedHashMap<>();
        values.put("classes.gold.rank", "1");
        values.put(full, "x");
        try {
          Settings.parse(List.of(ConfigSource.of("test", values)))
              .requireKnownEndpoints(List.of(), Set.of("e"));
        } catch (OverloadConfigException e) {
          if (e.getMessage().contains("unknown key")
              || e.getMessage().contains("unknown controller parameter")) {
            refused.add(full + ": " + e.getMessage());
          }
        }
      }
    }
    assertThat(refused).as("keys in the tables that the parser refuses as unknown").isEmpty();
  }

  @Test
  void everySectionThatTheParserHandsOutHasATable() {
    Set<String> prefixes = new TreeSet<>();
    KeyReference.tables().forEach(t -> prefixes.add(t.prefix()));
    assertThat(prefixes).containsAll(ConfigParser.SECTIONS).contains("", "controller");
    assertThat(prefixes).hasSize(ConfigParser.SECTIONS.size() + 2);
  }

  @Test
  void aKeyOutsideTheTablesIsRefusedNamingTheKeysThereAre() {
    for (String key : List.of("queue.permitz", "sessions.cookies", "classes.gold.rang", "enable")) {
      Map<String, String> values = Map.of("classes.gold.rank", "1", key, "x");
      try {
        Settings.parse(List.of(ConfigSource.of("test", values)));
        throw new AssertionError(key + " was accepted");
      } catch (OverloadConfigException e) {
        assertThat(e.getMessage()).contains(key).contains("unknown key; ").contains("the keys are");
      }
    }
  }

  /** A key with its placeholders filled in, as a user would write it. */
  static String example(String name) {
    return name.replace("<c>", "gold")
        .replace("<e>", "e")
        .replace("<g>", "g")
        .replace("<parameter>", "alpha")
        .replace("NAME", "t");
  }
}
