package org.overloadcontrol.internal.classify;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Paths that overload control leaves alone: health, readiness and metrics probes. A probe that
 * waited for an execution permit, or was refused, behind a flash crowd would tell the load
 * balancer or the orchestrator that a busy but healthy server is dead, and have it restarted
 * or taken out of rotation just when its capacity is needed. A request to one of these paths
 * is passed to the application untouched by every adapter: never tagged, counted, queued,
 * shaped or refused.
 *
 * <p>Key {@code bypass.paths} (read by {@code OverloadConfig#bypassPaths}): patterns in
 * servlet-mapping syntax, {@code none} for no bypass; by default the usual probe paths
 * ({@link #DEFAULTS}). Exact paths are one hash look-up; only
 * the prefix and extension patterns are tried one by one.
 */
public final class BypassPaths {

  /** The probe paths of Kubernetes conventions, Spring Boot Actuator and Prometheus. */
  public static final List<String> DEFAULTS =
      List.of(
          "/health/*",
          "/healthz",
          "/livez",
          "/readyz",
          "/ready",
          "/metrics",
          "/actuator/health/*",
          "/actuator/prometheus",
          "/actuator/metrics/*");

  /** Nothing bypasses. */
  public static final BypassPaths NONE = new BypassPaths(Set.of(), List.of(), false, List.of());

  private final Set<String> exact;

  /** The canonical forms of {@link #exact}: a path bypasses when its own is among them too. */
  private final Set<String> canonicalExact;

  private final PathPattern[] patterns;
  private final boolean all;

  /** Every pattern, the exact paths included: read at start only ({@link #mayMatch}). */
  private final List<PathPattern> every;

  private BypassPaths(
      Set<String> exact, List<PathPattern> patterns, boolean all, List<PathPattern> every) {
    this.exact = Set.copyOf(exact);
    this.canonicalExact =
        exact.stream().map(PathPattern::canonical).collect(java.util.stream.Collectors.toSet());
    this.patterns = patterns.toArray(PathPattern[]::new);
    this.all = all;
    this.every = List.copyOf(every);
  }

  /** The defaults. */
  public static BypassPaths defaults() {
    return of(DEFAULTS);
  }

  /**
   * Parses the value of {@code bypass.paths}: comma-separated patterns, or {@code none}.
   *
   * @throws IllegalArgumentException naming a pattern that is not one
   */
  public static BypassPaths parse(String value) {
    String v = value.trim();
    if (v.equals("none") || v.isEmpty()) {
      return NONE;
    }
    List<String> items = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isBlank()) {
        items.add(s.trim());
      }
    }
    return of(items);
  }

  /** @throws IllegalArgumentException naming a pattern that is not one */
  static BypassPaths of(List<String> patternTexts) {
    Set<String> exact = new HashSet<>();
    List<PathPattern> others = new ArrayList<>();
    List<PathPattern> every = new ArrayList<>();
    boolean all = false;
    for (String text : patternTexts) {
      PathPattern p = PathPattern.parse(text);
      every.add(p);
      if (text.equals("/*")) {
        all = true;
      } else if (text.startsWith("/") && text.indexOf('*') < 0) {
        exact.add(text);
      } else {
        others.add(p);
      }
    }
    return new BypassPaths(exact, others, all, every);
  }

  /** Whether {@code path} (within the application, starting with "/") bypasses control. */
  public boolean matches(String path) {
    if (all) {
      return true;
    }
    if (path == null) {
      return false;
    }
    if (exact.contains(path)) {
      // A probe path as written, unless a container may resolve it elsewhere (PathPattern).
      String canonical = PathPattern.canonical(path);
      return canonical == path || canonicalExact.contains(canonical);
    }
    for (PathPattern p : patterns) {
      if (p.matchesEveryForm(path)) {
        return true;
      }
    }
    return false;
  }

  /** Whether some path of a route's shape could bypass ({@link PathPattern#mayMatch}). */
  public boolean mayMatch(List<String> segments, boolean more) {
    for (PathPattern p : every) {
      if (p.mayMatch(segments, more)) {
        return true;
      }
    }
    return false;
  }

  public boolean isEmpty() {
    return !all && exact.isEmpty() && patterns.length == 0;
  }
}
