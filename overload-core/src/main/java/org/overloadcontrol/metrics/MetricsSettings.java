package org.overloadcontrol.metrics;

import java.util.List;
import java.util.Optional;

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
 *       over: it leaves a state this long after its cause was last seen.</li>
 * </ul>
 */
public final class MetricsSettings {

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

  /**
   * Settings with the given values, as a {@code metrics.} section gives them.
   *
   * @param enabled whether the metrics are registered and the overload watch runs
   * @param bindings the bindings by name (empty for none), or null for every one on the class path
   * @param jmx whether a binding exposes its registry over JMX, or null for the default (see
   *     {@link #jmx(boolean)})
   * @param jmxDomain the JMX domain, or null for the default (see {@link #jmxDomain(String)})
   * @param periodNanos how often the state is judged, more than 0
   * @param overloadQuietNanos the window the state is judged over, at least {@code periodNanos}
   * @return the settings
   * @throws IllegalArgumentException when a period is out of range
   */
  public static MetricsSettings of(
      boolean enabled,
      List<String> bindings,
      Boolean jmx,
      String jmxDomain,
      long periodNanos,
      long overloadQuietNanos) {
    if (periodNanos <= 0 || overloadQuietNanos < periodNanos) {
      throw new IllegalArgumentException(
          "the period must be positive and the quiet period at least the period: "
              + periodNanos
              + " ns, "
              + overloadQuietNanos
              + " ns");
    }
    return new MetricsSettings(
        enabled,
        bindings == null ? null : List.copyOf(bindings),
        jmx,
        jmxDomain,
        periodNanos,
        overloadQuietNanos);
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
