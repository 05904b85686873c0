package org.overloadcontrol.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * The keys under one feature's prefix ({@code bandwidth.}, {@code virtualQueue.}, ...), handed
 * to that feature to parse: the prefix is stripped, and each value keeps its full key and
 * origin so the feature's errors read like every other configuration error.
 */
public final class ConfigSection {

  private final String prefix;
  private final Map<String, String> values;
  private final Map<String, String> origins;

  ConfigSection(String prefix, Map<String, String> values, Map<String, String> origins) {
    this.prefix = prefix;
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
  }

  /** An empty section, for features that were not configured. */
  public static ConfigSection empty(String prefix) {
    return new ConfigSection(prefix, Map.of(), Map.of());
  }

  /** A section built from plain values, e.g. in a test. */
  public static ConfigSection of(String prefix, Map<String, String> values) {
    Map<String, String> origins = new LinkedHashMap<>();
    values.keySet().forEach(k -> origins.put(k, "configuration"));
    return new ConfigSection(prefix, values, origins);
  }

  /** The prefix without its trailing dot, e.g. {@code bandwidth}. */
  public String prefix() {
    return prefix;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The keys relative to the prefix ({@code total} for {@code bandwidth.total}). */
  public Set<String> keys() {
    return values.keySet();
  }

  /** The value of a relative key, or null. */
  public String get(String relativeKey) {
    return values.get(relativeKey);
  }

  /** The full key of a relative key, for messages. */
  public String fullKey(String relativeKey) {
    return prefix + "." + relativeKey;
  }

  /** Where a relative key came from. */
  public String origin(String relativeKey) {
    return origins.getOrDefault(relativeKey, "configuration");
  }

  /** An error about {@code relativeKey}, naming the full key, its value and origin. */
  public OverloadConfigException error(String relativeKey, String problem) {
    return OverloadConfigException.of(
        fullKey(relativeKey), get(relativeKey), origin(relativeKey), problem);
  }

  /**
   * An error about a rule between keys ({@code a} must not exceed {@code b}, {@code a} needs
   * {@code b}): blamed on the first of {@code relativeKeys} the user set, named as written with
   * its value and origin, since a key left at its default is not one the user can find. The
   * problem should name the other keys.
   */
  public OverloadConfigException conflict(String problem, String... relativeKeys) {
    for (String key : relativeKeys) {
      if (values.containsKey(key)) {
        return error(key, problem);
      }
    }
    return error(relativeKeys[0], problem);
  }

  /** {@link Codec#POSITIVE_INT}'s reading, for {@link #parse}. */
  public static int positiveInt(String v) {
    return Codec.POSITIVE_INT.parse(v);
  }

  /** {@link Codec#BOOLEAN}'s reading, the one of every switch, for {@link #parse}. */
  public static boolean bool(String v) {
    return Codec.BOOLEAN.parse(v);
  }

  /** {@link Codec#POSITIVE_NANOS}'s reading, for {@link #parse}. */
  public static long positiveDuration(String v) {
    return Codec.POSITIVE_NANOS.parse(v);
  }

  /** The value of {@code key}, read by its codec, or the key's default when it is absent. */
  public <T> T value(Key<T> key) {
    return value(key, key.name());
  }

  /**
   * The value of {@code relativeKey}, one of the keys {@code key} stands for ({@code
   * endpoints.cart.permits} for {@code endpoints.<e>.permits}), read by the key's codec, or the
   * key's default when it is absent.
   */
  public <T> T value(Key<T> key, String relativeKey) {
    return parse(relativeKey, key.codec()::parse, key.fallback());
  }

  /**
   * Parses a value with {@code parser}; an {@link IllegalArgumentException} from it becomes an
   * error naming the key. Returns {@code fallback} when the key is absent.
   */
  public <T> T parse(String relativeKey, Function<String, T> parser, T fallback) {
    String v = values.get(relativeKey);
    if (v == null) {
      return fallback;
    }
    try {
      return parser.apply(v.trim());
    } catch (OverloadConfigException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw error(relativeKey, e.getMessage());
    }
  }

  /** Throws for the first key that is not one of {@code table}'s, naming the keys it has. */
  public void requireOnly(KeyTable table) {
    for (String key : values.keySet()) {
      if (!table.accepts(key)) {
        throw error(key, "unknown key; under " + prefix + ". the keys are " + table.names());
      }
    }
  }
}
