package org.overloadcontrol.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.overloadcontrol.config.ConfigParser;
import org.overloadcontrol.config.ConfigSource;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * The configuration keys the documentation's tables list are the keys the model accepts, both
 * ways: each documented key, with its placeholders filled in, is parsed by {@link Settings}
 * and none is refused as an unknown key; and every key form the model accepts, as it lists
 * them in its own unknown-key message (the core forms, and each section's), matches a key some
 * table documents.
 */
class DocumentedKeysTest {

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** Each document, and the prefix its tables leave out (virtual-queue.md's are relative). */
  @ParameterizedTest
  @CsvSource({
    "../README.md,",
    "../docs/bandwidth.md,",
    "../docs/degradation.md,",
    "../docs/virtual-queue.md,virtualQueue.",
    "../docs/observability.md,"
  })
  void everyDocumentedKeyIsOneTheModelKnows(String document, String prefix) throws IOException {
    List<String> keys = documentedKeys(Path.of(document), prefix == null ? "" : prefix);
    assertThat(keys).as("keys found in %s", document).isNotEmpty();
    List<String> unknown = new ArrayList<>();
    for (String key : keys) {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("classes.gold.rank", "1");
      values.put(key, "x");
      try {
        Settings.parse(List.of(ConfigSource.of("test", values)))
            .requireKnownEndpoints(List.of(), Set.of("e"));
      } catch (OverloadConfigException e) {
        if (e.getMessage().contains("unknown key")) {
          unknown.add(key);
        }
      }
    }
    assertThat(unknown).as("documented in %s but unknown to the model", document).isEmpty();
  }

  private static final List<String> DOCUMENTS =
      List.of(
          "../README.md,",
          "../docs/bandwidth.md,",
          "../docs/degradation.md,",
          "../docs/virtual-queue.md,virtualQueue.",
          "../docs/observability.md,");

  @Test
  void everyKeyTheModelAcceptsIsDocumented() throws IOException {
    List<String> documented = new ArrayList<>();
    for (String entry : DOCUMENTS) {
      String[] parts = entry.split(",", -1);
      documented.addAll(documentedKeys(Path.of(parts[0]), parts[1]));
    }
    List<String> forms = acceptedKeyForms();
    assertThat(forms).as("key forms read from the model's messages").hasSizeGreaterThan(40);
    List<String> undocumented = new ArrayList<>();
    for (String form : forms) {
      Pattern pattern = Pattern.compile(form);
      if (documented.stream().noneMatch(key -> pattern.matcher(key).matches())) {
        undocumented.add(form);
      }
    }
    assertThat(undocumented).as("accepted by the model but in no documented table").isEmpty();
  }

  /**
   * The key forms the model accepts, as regular expressions over full keys, read from what it
   * tells a user who gives an unknown key: the core forms, then each section's patterns.
   */
  static List<String> acceptedKeyForms() {
    List<String> forms = new ArrayList<>();
    String core = unknownKeyMessage("zz-unknown");
    Matcher list = Pattern.compile("the keys are (.*?), and the feature sections").matcher(core);
    assertThat(list.find()).as("core key forms in: %s", core).isTrue();
    for (String form : list.group(1).split(",\\s*")) {
      forms.add(
          form.replace(".", "\\.")
              .replace("<class>", "[^.]+")
              .replace("<endpoint>", ".+")
              .replace("<parameter>", "[^.]+"));
    }
    for (String section : ConfigParser.SECTIONS) {
      String message = unknownKeyMessage(section + ".zz-unknown");
      Matcher patterns = Pattern.compile("the keys are \\[(.*)\\]").matcher(message);
      assertThat(patterns.find()).as("key patterns of %s in: %s", section, message).isTrue();
      for (String pattern : patterns.group(1).split(", ")) {
        forms.add(Pattern.quote(section + ".") + pattern);
      }
    }
    return forms;
  }

  private static String unknownKeyMessage(String key) {
    try {
      Settings.parse(List.of(ConfigSource.of("test", Map.of(key, "x"))));
    } catch (OverloadConfigException e) {
      assertThat(e.getMessage()).contains("unknown key");
      return e.getMessage();
    }
    throw new AssertionError(key + " was accepted");
  }

  @Test
  void aKeyTheModelDoesNotKnowWouldBeCaught() {
    Map<String, String> values = Map.of("queue.permitz", "x");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Settings.parse(List.of(ConfigSource.of("test", values))))
        .hasMessageContaining("unknown key");
  }

  /** {@code degrade.(step\\|period)}, as a table writes it, is two keys. */
  static List<String> alternatives(String key) {
    String plain = key.replace("\\|", "|");
    Matcher group = Pattern.compile("\\(([^()]*)\\)").matcher(plain);
    if (!group.find()) {
      return List.of(plain);
    }
    List<String> keys = new ArrayList<>();
    for (String choice : group.group(1).split("\\|")) {
      keys.addAll(
          alternatives(plain.substring(0, group.start()) + choice + plain.substring(group.end())));
    }
    return keys;
  }

  /** The keys in the first column of every table headed "key" or "parameter". */
  static List<String> documentedKeys(Path document, String prefix) throws IOException {
    List<String> keys = new ArrayList<>();
    String table = null;
    for (String line : Files.readAllLines(document)) {
      if (!line.startsWith("|")) {
        table = null;
        continue;
      }
      String first = line.split("(?<!\\\\)\\|", -1)[1].trim(); // an escaped pipe is no border
      if (table == null) {
        table = first.equals("key") || first.equals("parameter") ? first : "other";
        continue;
      }
      if (table.equals("other") || first.startsWith("---")) {
        continue;
      }
      String base = null;
      Matcher m = CODE.matcher(first);
      while (m.find()) {
        String code = m.group(1);
        String key =
            code.startsWith(".") && base != null
                ? base.substring(0, base.lastIndexOf('.')) + code
                : code;
        if (!code.startsWith(".")) {
          base = code;
        }
        key =
            key.replace("<c>", "gold")
                .replace("<e>", "e")
                .replace("<g>", "g")
                .replace("<parameter>", "alpha")
                .replace("NAME", "t");
        for (String one : alternatives(key)) {
          keys.add(table.equals("parameter") ? "controller." + one : prefix + one);
        }
      }
    }
    return keys;
  }
}
