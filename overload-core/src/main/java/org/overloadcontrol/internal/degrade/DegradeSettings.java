package org.overloadcontrol.internal.degrade;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.EndpointSettings;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * Which endpoints degrade and how (keys under {@code degrade.}), immutable and validated when the
 * engine starts. An endpoint is degradable when it has a key under
 * {@code degrade.endpoints.<e>.} (from {@code @Degradable} or configuration) and
 * {@code degrade.endpoints.<e>.enabled} is not false. Keys directly under {@code degrade.} are
 * defaults for every degradable endpoint; the endpoint's own keys override them.
 *
 * <pre>
 *   degrade.endpoints.search.minQuality = 0.2     q_min                       default 0.2
 *   degrade.endpoints.search.mode       = combined   combined | alone          default combined
 *   degrade.endpoints.search.decrease   = multiplicative | additive           default multiplicative
 *   degrade.endpoints.search.step       = 0.2      cut per period over target  default 0.2
 *   degrade.endpoints.search.raiseStep  = 0.05     rise per period under it    default 0.05
 *   degrade.endpoints.search.raiseBelow = 0.9      rise only under 0.9·target  default 0.9
 *   degrade.endpoints.search.period     = 1s       control period              default 1s
 *   degrade.endpoints.search.target     = 2s       default: endpoints.search.target
 *   degrade.endpoints.search.enabled    = false    switch an annotated endpoint off
 * </pre>
 */
public final class DegradeSettings {

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = DegradeKeyTable.TABLE;
  private static final Pattern ENDPOINT_KEY = KEYS.keysUnder("endpoints.<e>.");

  private static final double DEFAULT_MIN_QUALITY = 0.2;
  private static final double DEFAULT_STEP = 0.2;
  private static final double DEFAULT_RAISE_STEP = 0.05;
  private static final double DEFAULT_RAISE_BELOW = 0.9;
  private static final long DEFAULT_PERIOD_NANOS = 1_000_000_000L;

  private final Map<String, EndpointDegradeSettings> endpoints;

  private DegradeSettings(ConfigSection s, OverloadConfig config) {
    s.requireOnly(KEYS);
    Map<String, Map<String, String>> byEndpoint = new LinkedHashMap<>();
    for (String key : s.keys()) {
      Matcher m = ENDPOINT_KEY.matcher(key);
      if (m.matches()) {
        byEndpoint.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2), key);
      }
    }
    Map<String, EndpointDegradeSettings> out = new LinkedHashMap<>();
    byEndpoint.forEach(
        (name, keys) -> {
          boolean enabled = s.parse(keys.getOrDefault("enabled", "-"), ConfigSection::bool, true);
          if (enabled) {
            out.put(name, endpoint(s, config, name, keys));
          }
        });
    this.endpoints = Map.copyOf(out);
  }

  /** Parses the {@code degrade.} section of {@code config}. */
  public static DegradeSettings from(OverloadConfig config) {
    return new DegradeSettings(config.section("degrade"), config);
  }

  /** The settings of {@code endpoint}, or null when it does not degrade. */
  public EndpointDegradeSettings endpoint(String endpoint) {
    return endpoints.get(endpoint);
  }

  /** The degradable endpoints by name. */
  public Map<String, EndpointDegradeSettings> endpoints() {
    return endpoints;
  }

  /** Whether any endpoint degrades (the engine then needs its periodic task). */
  public boolean enabled() {
    return !endpoints.isEmpty();
  }

  private static EndpointDegradeSettings endpoint(
      ConfigSection s, OverloadConfig config, String name, Map<String, String> keys) {
    double minQuality = value(s, keys, "minQuality", v -> fraction(v, true), DEFAULT_MIN_QUALITY);
    DegradeMode mode =
        value(
            s,
            keys,
            "mode",
            v ->
                switch (v.toLowerCase(Locale.ROOT)) {
                  case "combined" -> DegradeMode.COMBINED;
                  case "alone" -> DegradeMode.ALONE;
                  default -> throw new IllegalArgumentException("allowed: combined, alone");
                },
            DegradeMode.COMBINED);
    DecreaseRule decrease =
        value(
            s,
            keys,
            "decrease",
            v ->
                switch (v.toLowerCase(Locale.ROOT)) {
                  case "multiplicative" -> DecreaseRule.MULTIPLICATIVE;
                  case "additive" -> DecreaseRule.ADDITIVE;
                  default ->
                      throw new IllegalArgumentException("allowed: multiplicative, additive");
                },
            DecreaseRule.MULTIPLICATIVE);
    double step = value(s, keys, "step", v -> openFraction(v), DEFAULT_STEP);
    double raiseStep = value(s, keys, "raiseStep", v -> fraction(v, false), DEFAULT_RAISE_STEP);
    double raiseBelow = value(s, keys, "raiseBelow", v -> fraction(v, false), DEFAULT_RAISE_BELOW);
    long period = value(s, keys, "period", ConfigSection::positiveDuration, DEFAULT_PERIOD_NANOS);
    long target = targetNanos(s, config, name, keys);
    return new EndpointDegradeSettings(
        name, target, minQuality, decrease, step, raiseStep, raiseBelow, period, mode);
  }

  /** The endpoint's own key if set, else the section-wide default key, else {@code fallback}. */
  private static <T> T value(
      ConfigSection s,
      Map<String, String> keys,
      String name,
      Function<String, T> parser,
      T fallback) {
    T global = s.parse(name, parser, fallback);
    String own = keys.get(name);
    return own == null ? global : s.parse(own, parser, global);
  }

  private static long targetNanos(
      ConfigSection s, OverloadConfig config, String name, Map<String, String> keys) {
    String own = keys.get("target");
    if (own != null) {
      return s.parse(own, ConfigSection::positiveDuration, 0L);
    }
    EndpointSettings e = config.endpoints().get(name);
    if (e != null && e.targetNanos() != null && e.targetNanos() > 0) {
      return e.targetNanos();
    }
    // Name the key that made the endpoint degradable, so the message points at the cause.
    String cause = keys.values().iterator().next();
    throw s.error(
        cause,
        "endpoint '"
            + name
            + "' degrades but has no response-time target;"
            + " set endpoints."
            + name
            + ".target (or @ResponseTimeTarget on its servlet), or "
            + s.fullKey("endpoints." + name + ".target"));
  }

  private static double number(String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number");
    }
  }

  /** A number in [0, 1] when {@code zeroAllowed}, else in (0, 1]. */
  private static double fraction(String v, boolean zeroAllowed) {
    double d = number(v);
    if (!(d <= 1) || !(zeroAllowed ? d >= 0 : d > 0)) {
      throw new IllegalArgumentException(zeroAllowed ? "must lie in [0, 1]" : "must lie in (0, 1]");
    }
    return d;
  }

  private static double openFraction(String v) {
    double d = number(v);
    if (!(d > 0 && d < 1)) {
      throw new IllegalArgumentException(
          "must lie in (0, 1): a step of 1 would skip every"
              + " quality between full and the minimum");
    }
    return d;
  }

  @Override
  public String toString() {
    return "DegradeSettings" + new LinkedHashSet<>(endpoints.values());
  }
}
