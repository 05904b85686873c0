package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonConfiguration;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonDifferenceCalculator;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.capacity.FixedCapacity;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.metrics.StatusAccess;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings;

/**
 * The default a key table documents is the one the code uses: for every key of every table
 * whose default is one value, that value is of the key's type, and a configuration that writes
 * it out parses to exactly what a configuration without the key parses to. A section that kept
 * a default of its own, or a table whose default changed alone, fails here by name.
 */
class KeyDefaultsTest {

  /**
   * Keys, or the keys starting so, whose documented default holds only beside other keys: what
   * those are set to on both sides of the comparison.
   */
  private static final Map<String, Map<String, String>> GIVEN =
      Map.of(
          // maxPermits' default is the adaptive controller's; without it the permits are the
          // ceiling.
          "queue.endpoints.e.maxPermits", Map.of("queue.endpoints.e.adaptive", "true"),
          // any bandwidth key switches shaping on, which needs the link's rate
          "bandwidth.", Map.of("bandwidth.total", "1MB/s"),
          // a hardness is given only with a capacity that is not estimated
          "virtualQueue.hardness.", Map.of("virtualQueue.capacity", "10"));

  /** Defaults that read as one value but are words: no key is set to them. */
  private static final Set<String> WORDS = Set.of("rejectionHandler");

  @Test
  void everyLiteralDefaultIsOfItsKeysType() {
    for (KeyTable table : KeyReference.tables()) {
      for (Key<?> key : table.keys()) {
        String literal = key.literalDefault();
        if (literal != null) {
          assertThatCode(() -> key.codec().parse(literal))
              .as("%s: default %s", table.fullName(key), literal)
              .doesNotThrowAnyException();
        }
      }
    }
  }

  @Test
  void everyLiteralDefaultIsWhatTheCodeUsesWhenTheKeyIsAbsent() {
    List<String> disagreeing = new ArrayList<>();
    for (KeyTable table : KeyReference.tables()) {
      for (Key<?> key : table.keys()) {
        String literal = key.literalDefault();
        String full = example(table.fullName(key));
        if (literal == null || WORDS.contains(full)) {
          continue;
        }
        Map<String, String> absent = base(table, key);
        GIVEN.forEach(
            (start, given) -> {
              if (full.startsWith(start)) {
                absent.putAll(given);
              }
            });
        Map<String, String> written = new LinkedHashMap<>(absent);
        written.put(full, literal);
        String difference = difference(parsed(absent), parsed(written));
        if (difference != null) {
          disagreeing.add(full + " = " + literal + ": " + difference);
        }
      }
    }
    assertThat(disagreeing)
        .as("keys whose table default is not what the code uses without them")
        .isEmpty();
  }

  @Test
  void aSectionThatKeepsADefaultOfItsOwnIsCaught() {
    Map<String, String> absent = new LinkedHashMap<>();
    Map<String, String> written = Map.of("queue.browsingCapacity", "60");
    assertThat(difference(parsed(absent), parsed(written))).contains("browsingCapacity");
    assertThat(difference(parsed(absent), parsed(Map.of("queue.browsingCapacity", "50")))).isNull();
  }

  /**
   * What the key's family needs to exist without it: a class for {@code <c>}, and for a key
   * under a name the user chooses ({@code endpoints.<e>.permits}), another key of the same
   * name at its default, so that the endpoint exists on both sides.
   */
  private static Map<String, String> base(KeyTable table, Key<?> key) {
    Map<String, String> base = new LinkedHashMap<>();
    if (!table.fullName(key).startsWith("classes.<c>.")) {
      base.put("classes.gold.rank", "1");
    }
    int placeholder = key.name().indexOf('<');
    if (placeholder < 0) {
      return base;
    }
    String family = key.name().substring(0, key.name().indexOf('.', placeholder) + 1);
    for (Key<?> sibling : table.keys()) {
      if (sibling != key
          && sibling.name().startsWith(family)
          && sibling.literalDefault() != null
          && !GIVEN.containsKey(example(table.fullName(sibling)))) {
        base.put(example(table.fullName(sibling)), sibling.literalDefault());
        return base;
      }
    }
    return base;
  }

  /** A key with its placeholders filled: endpoint {@code e}, class {@code gold}. */
  private static String example(String name) {
    return name.replace("<e>", "e")
        .replace("<c>", "gold")
        .replace("<g>", "g")
        .replace("<parameter>", "alpha")
        .replace("NAME", "search");
  }

  /** Everything the code reads from a configuration, or the refusal it meets. */
  private static Object parsed(Map<String, String> values) {
    Settings settings;
    try {
      settings = Settings.parse(List.of(ConfigSource.of("test", values)));
    } catch (OverloadConfigException e) {
      return e.getMessage();
    }
    OverloadConfig config = settings.config();
    Map<String, Object> read = new LinkedHashMap<>();
    read.put("settings", settings);
    config
        .classes()
        .values()
        .forEach(c -> read.put("controller of " + c.name(), config.settingsFor("e", c)));
    read.put("status", StatusAccess.from(config.section("status"), null, null));
    // the hardness of a type none is given for is the fixed capacity's to say
    VirtualQueueSettings queue = settings.virtualQueue();
    if (!Double.isNaN(queue.capacity())) {
      read.put(
          "hardness of search",
          new FixedCapacity(queue.capacity(), queue.hardness()).hardness("search"));
    }
    return read;
  }

  /** The fields in which the two differ, or null; the keys' raw text is not compared. */
  private static String difference(Object absent, Object written) {
    RecursiveComparisonConfiguration comparison =
        RecursiveComparisonConfiguration.builder()
            .withIgnoredFieldsMatchingRegexes(
                ".*\\.sections",
                ".*\\.values",
                ".*\\.origins",
                ".*Controllers?",
                "settings\\.virtualQueue\\.hardness")
            .withEqualsForType((a, b) -> Double.compare(a, b) == 0, Double.class)
            .build();
    var differences =
        new RecursiveComparisonDifferenceCalculator()
            .determineDifferences(absent, written, comparison);
    return differences.isEmpty()
        ? null
        : differences.stream()
            .map(d -> d.getConcatenatedPath() + " " + d.getActual() + " / " + d.getExpected())
            .toList()
            .toString();
  }
}
