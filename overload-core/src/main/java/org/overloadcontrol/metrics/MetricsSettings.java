package org.overloadcontrol.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.metrics.MetricsKeyTable;
import org.overloadcontrol.internal.metrics.OverloadWatch;

/**
 * The validated settings of the {@code metrics.} configuration section.
 *
 * <ul>
 *   <li>{@code metrics.enabled} (true): register the metrics and run the overload watch;</li>
 *   <li>{@code metrics.binding} (every {@link MetricsBinding} on the class path): the metrics
 *       libraries to report to, by name ({@code dropwizard}, {@code micrometer},
 *       {@code prometheus}, comma-separated), or {@code none};</li>
 *   <li>{@code metrics.jmx} (true with the filter's own registry, false with the application's,
 *       whose reporters the application owns): expose the registry over JMX;</li>
 *   <li>{@code metrics.jmxDomain} ({@code org.overloadcontrol}, plus the context path when it is
 *       not the root, so that two applications in one JVM do not collide);</li>
 *   <li>{@code metrics.period} (1s): how often new endpoints and classes are registered and
 *       each endpoint's state is judged;</li>
 *   <li>{@code metrics.overloadQuietPeriod} (5s): the window an endpoint's state is judged
 *       over: it leaves a state this long after its cause was last seen
 *       ({@link OverloadWatch}).</li>
 * </ul>
 */
public final class MetricsSettings {

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = MetricsKeyTable.METRICS;
  private static final long DEFAULT_PERIOD_NANOS = 1_000_000_000L;
  private static final long DEFAULT_QUIET_NANOS = 5_000_000_000L;

  private final boolean enabled;
  private final List<String> bindings;
  private final Boolean jmx;
  private final String jmxDomain;
  private final long periodNanos;
  private final long overloadQuietNanos;

  private MetricsSettings(
      boolean enabled,
      List<String> bindings,
      Boolean jmx,
      String jmxDomain,
      long periodNanos,
      long overloadQuietNanos) {
    this.enabled = enabled;
    this.bindings = bindings;
    this.jmx = jmx;
    this.jmxDomain = jmxDomain;
    this.periodNanos = periodNanos;
    this.overloadQuietNanos = overloadQuietNanos;
  }

  /** The defaults, what an empty section gives. */
  public static MetricsSettings defaults() {
    return new MetricsSettings(true, null, null, null, DEFAULT_PERIOD_NANOS, DEFAULT_QUIET_NANOS);
  }

  /** Reads and validates a {@code metrics.} section. */
  public static MetricsSettings from(ConfigSection section) {
    if (section.isEmpty()) {
      return defaults();
    }
    section.requireOnly(KEYS);
    boolean enabled = section.parse("enabled", ConfigSection::bool, true);
    List<String> bindings = section.parse("binding", MetricsSettings::names, null);
    Boolean jmx = section.parse("jmx", ConfigSection::bool, null);
    String domain = section.parse("jmxDomain", MetricsSettings::domain, null);
    long period = section.parse("period", ConfigSection::positiveDuration, DEFAULT_PERIOD_NANOS);
    long quiet =
        section.parse("overloadQuietPeriod", ConfigSection::positiveDuration, DEFAULT_QUIET_NANOS);
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
    return new MetricsSettings(enabled, bindings, jmx, domain, period, quiet);
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

  public boolean enabled() {
    return enabled;
  }

  /** The bindings named by {@code metrics.binding} (empty for none), or empty when unset. */
  public Optional<List<String>> bindings() {
    return Optional.ofNullable(bindings);
  }

  /**
   * Whether a binding whose library reports over JMX starts its reporter: the configured value,
   * else true exactly when the registry is the binding's own.
   */
  public boolean jmx(boolean ownRegistry) {
    return jmx != null ? jmx : ownRegistry;
  }

  /** The configured JMX domain, or the default for an application at {@code contextPath}. */
  public String jmxDomain(String contextPath) {
    if (jmxDomain != null) {
      return jmxDomain;
    }
    String path = contextPath == null ? "" : contextPath.replaceAll("[^A-Za-z0-9_.-]", "");
    return path.isEmpty() ? "org.overloadcontrol" : "org.overloadcontrol." + path;
  }

  public long periodNanos() {
    return periodNanos;
  }

  public long overloadQuietNanos() {
    return overloadQuietNanos;
  }
}
