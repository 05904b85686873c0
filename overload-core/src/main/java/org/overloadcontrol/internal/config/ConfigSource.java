package org.overloadcontrol.internal.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One layer of configuration: flat dotted keys and their textual values, with the name of
 * where they came from ("web.xml init-param", "WEB-INF/overload.yaml", "annotations") for error
 * messages. Annotations, init-params, YAML and the Jetty builder all produce this one form.
 */
public final class ConfigSource {

  private final String name;
  private final Map<String, String> values;
  private final Map<String, String> origins;

  private ConfigSource(String name, Map<String, String> values, Map<String, String> origins) {
    this.name = name;
    this.values = Collections.unmodifiableMap(values);
    this.origins = Collections.unmodifiableMap(origins);
  }

  /** A layer whose every key came from {@code name}. */
  public static ConfigSource of(String name, Map<String, String> values) {
    Objects.requireNonNull(name, "name");
    Map<String, String> copy = new LinkedHashMap<>();
    Map<String, String> origins = new LinkedHashMap<>();
    values.forEach(
        (k, v) -> {
          copy.put(k.trim(), v == null ? "" : v.trim());
          origins.put(k.trim(), name);
        });
    return new ConfigSource(name, copy, origins);
  }

  /** A builder for a layer whose keys may each name their own origin. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public Map<String, String> values() {
    return values;
  }

  /** Where {@code key} came from. */
  public String origin(String key) {
    return origins.getOrDefault(key, name);
  }

  /** Builds a {@link ConfigSource} key by key. */
  public static final class Builder {
    private final String name;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder put(String key, String value) {
      return put(key, value, name);
    }

    public Builder put(String key, String value, String origin) {
      values.put(key, value);
      origins.put(key, origin);
      return this;
    }

    public String get(String key) {
      return values.get(key);
    }

    public String originOf(String key) {
      return origins.get(key);
    }

    public ConfigSource build() {
      return new ConfigSource(name, new LinkedHashMap<>(values), new LinkedHashMap<>(origins));
    }
  }
}
