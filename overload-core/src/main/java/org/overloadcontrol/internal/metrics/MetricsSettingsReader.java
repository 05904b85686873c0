package org.overloadcontrol.internal.metrics;

import java.util.Arrays;
import java.util.List;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.metrics.MetricsSettings;

/** Reads and validates the {@code metrics.} section into the published {@link MetricsSettings}. */
public final class MetricsSettingsReader {

  private static final KeyTable KEYS = MetricsKeyTable.METRICS;

  private MetricsSettingsReader() {}

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  /** Reads and validates a {@code metrics.} section; an empty one gives the defaults. */
  public static MetricsSettings read(ConfigSection section) {
    MetricsSettings defaults = MetricsSettings.defaults();
    if (section.isEmpty()) {
      return defaults;
    }
    section.requireOnly(KEYS);
    boolean enabled = section.parse("enabled", ConfigSection::bool, defaults.enabled());
    List<String> bindings = section.parse("binding", MetricsSettingsReader::names, null);
    Boolean jmx = section.parse("jmx", ConfigSection::bool, null);
    String domain = section.parse("jmxDomain", MetricsSettingsReader::domain, null);
    long period = section.parse("period", ConfigSection::positiveDuration, defaults.periodNanos());
    long quiet =
        section.parse(
            "overloadQuietPeriod", ConfigSection::positiveDuration, defaults.overloadQuietNanos());
    if (quiet < period) {
      throw section.conflict(
          "metrics.overloadQuietPeriod ("
              + quiet / 1_000_000
              + " ms) must be at least metrics.period ("
              + period / 1_000_000
              + " ms): each endpoint's state is judged once per period",
          "overloadQuietPeriod",
          "period");
    }
    return MetricsSettings.of(enabled, bindings, jmx, domain, period, quiet);
  }

  private static List<String> names(String v) {
    List<String> names = Arrays.stream(v.split(",", -1)).map(String::trim).toList();
    if (names.contains("")) {
      throw new IllegalArgumentException("must be binding names separated by commas, or none");
    }
    return names.equals(List.of("none")) ? List.of() : names;
  }

  private static String domain(String v) {
    if (v.isEmpty() || v.chars().anyMatch(c -> c == ':' || c == '*' || c == '?' || c == '\n')) {
      throw new IllegalArgumentException(
          "must be a JMX domain: not empty, without ':', '*', '?'" + " or line breaks");
    }
    return v;
  }
}
