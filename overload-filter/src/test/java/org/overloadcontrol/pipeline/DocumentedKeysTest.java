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
import org.overloadcontrol.config.ConfigSource;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * The configuration keys the documentation's tables list are the keys the model accepts:
 * each documented key, with its placeholders filled in, is parsed by {@link Settings}, and
 * none may be refused as an unknown key. (A key the model accepts but no table lists is not
 * caught here.)
 */
class DocumentedKeysTest {

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** Each document, and the prefix its tables leave out (virtual-queue.md's are relative). */
  @ParameterizedTest
  @CsvSource({"../README.md,", "../docs/bandwidth.md,", "../docs/degradation.md,",
      "../docs/virtual-queue.md,virtualQueue.", "../docs/observability.md,"})
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

  @Test
  void aKeyTheModelDoesNotKnowWouldBeCaught() {
    Map<String, String> values = Map.of("queue.permitz", "x");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> Settings.parse(List.of(ConfigSource.of("test", values))))
        .hasMessageContaining("unknown key");
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
      String first = line.split("\\|", -1)[1].trim();
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
        String key = code.startsWith(".") && base != null
            ? base.substring(0, base.lastIndexOf('.')) + code : code;
        if (!code.startsWith(".")) {
          base = code;
        }
        key = key.replace("<c>", "gold").replace("<e>", "e").replace("<g>", "g")
            .replace("<parameter>", "alpha").replace("NAME", "t");
        keys.add(table.equals("parameter") ? "controller." + key : prefix + key);
      }
    }
    return keys;
  }
}
