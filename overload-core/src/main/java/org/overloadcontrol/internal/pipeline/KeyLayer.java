package org.overloadcontrol.internal.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.overloadcontrol.internal.config.ConfigSource;

/**
 * One layer of flat configuration keys as an adapter makes it (annotations it read, init-params,
 * keys given in code, a framework's properties, a YAML file), each key with where it came from
 * for the messages; {@link ConfigLayers} reads it with the others. An adapter never reads the
 * keys' meaning from it: the settings do.
 */
public final class KeyLayer {

  private final ConfigSource source;

  private KeyLayer(ConfigSource source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  /** A layer whose every key came from {@code name}. */
  public static KeyLayer of(String name, Map<String, String> values) {
    return new KeyLayer(ConfigSource.of(name, values));
  }

  /**
   * The keys of a YAML document, flattened ({@code a: {b: 1}} is {@code a.b=1}).
   *
   * @param name the file or resource, for the messages
   * @throws org.overloadcontrol.config.OverloadConfigException when it is not valid YAML
   */
  public static KeyLayer yaml(InputStream in, String name) throws IOException {
    return new KeyLayer(YamlConfigLoader.load(in, name));
  }

  /**
   * The keys of the YAML file {@code file}, which the configuration key {@code key} named (as
   * {@code value}, given in {@code origin}).
   *
   * @throws org.overloadcontrol.config.OverloadConfigException naming the key, its value and
   *     origin when there is no such file, or the file when it is not valid YAML
   * @throws java.io.UncheckedIOException when it cannot be read
   */
  public static KeyLayer yamlFile(Path file, String key, String value, String origin) {
    return new KeyLayer(YamlConfigLoader.loadFile(file, key, value, origin));
  }

  /** A builder for a layer whose keys may each name their own origin. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The keys and their values, in the order they were given. */
  public Map<String, String> values() {
    return source.values();
  }

  /** Where {@code key}'s value came from: the origin it was put with, else the layer's name. */
  public String origin(String key) {
    return source.origin(key);
  }

  /** The layer as the settings parse it. */
  ConfigSource source() {
    return source;
  }

  /** Builds a {@link KeyLayer} key by key. */
  public static final class Builder {
    private final ConfigSource.Builder source;

    private Builder(String name) {
      this.source = ConfigSource.builder(name);
    }

    /** Sets {@code key}, from the layer's own origin. */
    public Builder put(String key, String value) {
      source.put(key, value);
      return this;
    }

    /** Sets {@code key}, from {@code origin} (an annotated class, a property source). */
    public Builder put(String key, String value, String origin) {
      source.put(key, value, origin);
      return this;
    }

    /** The value set for {@code key}, or null. */
    public String get(String key) {
      return source.get(key);
    }

    /** Where the value set for {@code key} came from, or null. */
    public String originOf(String key) {
      return source.originOf(key);
    }

    public KeyLayer build() {
      return new KeyLayer(source.build());
    }
  }
}
