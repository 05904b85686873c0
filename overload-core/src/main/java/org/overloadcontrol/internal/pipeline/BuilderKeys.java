package org.overloadcontrol.internal.pipeline;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.config.ConfigParser;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.queue.QueueSettings;

/**
 * The flat keys and texts an adapter's typed builder methods put, written by each key's codec so
 * that they read back as they were given: a builder says {@code target("search",
 * Duration.ofMillis(500))} and never spells {@code "endpoints.search.target"} or formats a
 * duration itself.
 */
public final class BuilderKeys {

  private BuilderKeys() {}

  /** {@code endpoints.<endpoint>.target}. */
  public static Map<String, String> target(String endpoint, Duration p90Target) {
    return entries(ConfigParser.coreKeyTable(), ConfigParser.ENDPOINT_TARGET, p90Target, endpoint);
  }

  /**
   * {@code endpoints.<endpoint>.target} with the text as written (an annotation's), read and
   * checked with the rest of the configuration.
   */
  public static Map<String, String> targetText(String endpoint, String p90Target) {
    return Map.of(
        ConfigParser.coreKeyTable().nameOf(ConfigParser.ENDPOINT_TARGET.name(), endpoint),
        p90Target);
  }

  /** {@code endpoints.<endpoint>.class}: the class of its requests that no rule classifies. */
  public static Map<String, String> endpointClass(String endpoint, String className) {
    return entries(ConfigParser.coreKeyTable(), ConfigParser.ENDPOINT_CLASS, className, endpoint);
  }

  /**
   * {@code degrade.endpoints.<endpoint>.minQuality} and {@code .mode}: the endpoint's lowest
   * quality, and whether admission control takes over there ({@code combined}) or never
   * ({@code alone}).
   */
  public static Map<String, String> degradable(
      String endpoint, double minQuality, boolean withAdmissionControl) {
    KeyTable degrade = DegradeSettings.keyTable();
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(degrade.nameOf("endpoints.<e>.minQuality", endpoint), Double.toString(minQuality));
    keys.put(
        degrade.nameOf("endpoints.<e>.mode", endpoint),
        withAdmissionControl ? "combined" : "alone");
    return keys;
  }

  /** {@code classes.<name>.rank}, {@code .kind} and {@code .utility}. */
  public static Map<String, String> requestClass(
      String name, int rank, RequestKind kind, double utility) {
    KeyTable core = ConfigParser.coreKeyTable();
    Map<String, String> keys = new LinkedHashMap<>();
    keys.putAll(entries(core, ConfigParser.CLASS_RANK, rank, name));
    keys.putAll(entries(core, ConfigParser.CLASS_KIND, kind, name));
    keys.putAll(entries(core, ConfigParser.CLASS_UTILITY, utility, name));
    return keys;
  }

  /** {@code endpoints.<endpoint>.paths}: the patterns, comma-separated. */
  public static Map<String, String> paths(String endpoint, String... patterns) {
    return entries(
        ConfigParser.coreKeyTable(),
        ConfigParser.ENDPOINT_PATHS,
        String.join(",", patterns),
        endpoint);
  }

  /**
   * {@code classes.<className>.match.<condition>}. A condition the table does not know is put
   * under the name it would have, so that the configuration refuses it as it would the same key
   * in a file.
   */
  public static Map<String, String> match(String className, String condition, String value) {
    for (Key<String> key : ConfigParser.CLASS_MATCH) {
      if (key.name().substring(key.name().lastIndexOf('.') + 1).equals(condition)) {
        return entries(ConfigParser.coreKeyTable(), key, value, className);
      }
    }
    String known = ConfigParser.CLASS_MATCH.get(0).nameFor(className);
    return Map.of(known.substring(0, known.lastIndexOf('.') + 1) + condition, value);
  }

  /** {@code trustedProxies}: the addresses or CIDR blocks, comma-separated. */
  public static Map<String, String> trustedProxies(String... addressesOrCidrs) {
    return entries(
        ConfigParser.coreKeyTable(),
        ConfigParser.TRUSTED_PROXIES,
        String.join(",", addressesOrCidrs));
  }

  /** {@code queue.permits}. */
  public static Map<String, String> permits(int permits) {
    return entries(QueueSettings.keyTable(), QueueSettings.PERMITS, permits);
  }

  private static <T> Map<String, String> entries(
      KeyTable table, Key<T> key, T value, String... names) {
    Map.Entry<String, String> entry = table.entry(key, value, names);
    return Map.of(entry.getKey(), entry.getValue());
  }
}
