package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.overloadcontrol.internal.config.Key.key;

import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;

/** A table's key names as the section's whitelist and as the patterns it reads keys by. */
class KeyTableTest {

  private static final KeyTable TABLE =
      KeyTable.of(
          "queue",
          "Wait queues",
          key("permits", "integer", "none", "requests at once"),
          key("overload.window", "duration", "`1s`", "the window"),
          key("classes.<c>.capacity", "integer", "", "bound"),
          key("endpoints.<e>.permits", "integer", "", "at once"),
          key("endpoints.<e>.threshold.initial", "integer", "20", "start"),
          key("types.NAME", "path patterns", "—", "a type"),
          key("classes.<c>.controller.<parameter>", "parameter", "", "per class"));

  @Test
  void placeholdersStandForTheNamesAUserChooses() {
    assertThat(TABLE.accepts("permits")).isTrue();
    assertThat(TABLE.accepts("overload.window")).isTrue();
    assertThat(TABLE.accepts("overloadXwindow")).as("a dot is a dot").isFalse();
    assertThat(TABLE.accepts("classes.gold.capacity")).isTrue();
    assertThat(TABLE.accepts("classes.a.b.capacity")).as("a class is one segment").isFalse();
    assertThat(TABLE.accepts("endpoints.api.v1.permits")).as("an endpoint may hold dots").isTrue();
    assertThat(TABLE.accepts("types.big_file-2")).isTrue();
    assertThat(TABLE.accepts("types.a.b")).isFalse();
    assertThat(TABLE.accepts("permitz")).isFalse();
  }

  @Test
  void keysUnderAPlaceholderAreReadWithTheNameAndTheRest() {
    Matcher m = TABLE.keysUnder("endpoints.<e>.").matcher("endpoints.api.v1.threshold.initial");
    assertThat(m.matches()).isTrue();
    assertThat(m.group(1)).isEqualTo("api.v1");
    assertThat(m.group(2)).isEqualTo("threshold.initial");
    assertThat(TABLE.keysUnder("endpoints.<e>.").matcher("endpoints.a.capacity").matches())
        .isFalse();
    Matcher c = TABLE.keysUnder("classes.<c>.").matcher("classes.gold.capacity");
    assertThat(c.matches()).isTrue();
    assertThat(c.group(1)).isEqualTo("gold");
    Matcher p = TABLE.keysUnder("classes.<c>.").matcher("classes.gold.controller.alpha");
    assertThat(p.matches()).as("a placeholder after the start").isTrue();
    assertThat(p.group(2)).isEqualTo("controller.alpha");
    assertThatThrownBy(() -> TABLE.keysUnder("groups.<g>.")).hasMessageContaining("groups.<g>.");
  }

  @Test
  void anUnknownKeyIsRefusedNamingTheTablesKeys() {
    ConfigSection s = ConfigSection.of("queue", Map.of("permitz", "3"));
    assertThatThrownBy(() -> s.requireOnly(TABLE))
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("queue.permitz")
        .hasMessageContaining("unknown key; under queue. the keys are [")
        .hasMessageContaining("endpoints.<e>.permits");
  }

  @Test
  void aDefaultIsAValueOrWords() {
    assertThat(key("a", "t", "`10s`", "m").literalDefault()).isEqualTo("10s");
    assertThat(key("a", "t", "0.9", "m").literalDefault()).isEqualTo("0.9");
    assertThat(key("a", "t", "−0.5", "m").literalDefault()).isEqualTo("-0.5");
    assertThat(key("a", "t", "none: no queueing", "m").literalDefault()).isNull();
    assertThat(key("a", "t", "`maxLimit`", "m").literalDefault()).isNull();
    assertThat(key("a", "t", "`endpoints.<e>.target`", "m").literalDefault()).isNull();
    assertThat(key("a", "t", "required", "m").literalDefault()).isNull();
  }

  @Test
  void aKeyListedTwiceIsAMistake() {
    assertThatThrownBy(() -> KeyTable.of("q", "Q", key("a", "t", "", "m"), key("a", "t", "", "m")))
        .hasMessageContaining("listed twice");
  }

  @Test
  void aTypedKeyIsWrittenAsItsCodecReadsIt() {
    Key<Long> window =
        Key.typed("overload.window", "duration", "`1s`", "the window", Codec.POSITIVE_NANOS);
    Key<Integer> permits =
        Key.typed("endpoints.<e>.permits", "integer", "", "at once", Codec.POSITIVE_INT);
    KeyTable table = KeyTable.of("queue", "Wait queues", window, permits);

    assertThat(table.entry(window, 1_500_000_000L))
        .isEqualTo(Map.entry("queue.overload.window", "1500ms"));
    assertThat(table.entry(permits, 8, "search.v2"))
        .isEqualTo(Map.entry("queue.endpoints.search.v2.permits", "8"));
    assertThat(window.fallback()).isEqualTo(1_000_000_000L);
    assertThatThrownBy(() -> table.entry(permits, 8))
        .hasMessageContaining("a name for each placeholder");
    assertThatThrownBy(() -> TABLE.entry(window, 1L))
        .hasMessageContaining("not a key of this table");
    assertThatThrownBy(
            () -> Key.typed("maxWait", "duration", "`ten`", "the wait", Codec.POSITIVE_NANOS))
        .hasMessageContaining("the default ten is not of the key's type");
  }

  @Test
  void theBuildersTypedKeysWriteWhatTheParserReads() {
    Map.Entry<String, String> target =
        ConfigParser.coreKeyTable()
            .entry(ConfigParser.ENDPOINT_TARGET, java.time.Duration.ofMillis(1500), "search");
    assertThat(target).isEqualTo(Map.entry("endpoints.search.target", "1500ms"));
    assertThat(ConfigParser.coreKeyTable().entry(ConfigParser.ENDPOINT_TARGET, null, "search"))
        .isEqualTo(Map.entry("endpoints.search.target", "none"));
    Map.Entry<String, String> kind =
        ConfigParser.coreKeyTable()
            .entry(
                ConfigParser.CLASS_KIND, org.overloadcontrol.base.RequestKind.TRANSACTION, "gold");
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(target.getKey(), target.getValue(), kind.getKey(), kind.getValue()));
    assertThat(config.endpoints().get("search").targetNanos()).isEqualTo(1_500_000_000L);
    assertThat(config.requestClass("gold").orElseThrow().kind())
        .isEqualTo(org.overloadcontrol.base.RequestKind.TRANSACTION);
  }
}
