package org.overloadcontrol.internal.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.OptionalLibrary;

/**
 * Reads the YAML configuration file into the flat dotted-key form: nested maps join their keys
 * with dots and lists join their items with commas, so {@code endpoints: {search: {target: 1s}}}
 * is the key {@code endpoints.search.target}. SnakeYAML's safe constructor builds only plain
 * maps, lists and scalars; SnakeYAML is optional ({@link OptionalLibrary#SNAKEYAML}): without it a
 * YAML file is refused with a message saying what to add, and properties and init-params work.
 */
public final class YamlConfigLoader {

  private YamlConfigLoader() {}

  /** Parses YAML from {@code in}; {@code name} says where it came from in error messages. */
  public static ConfigSource load(InputStream in, String name) throws IOException {
    OptionalLibrary.SNAKEYAML.require(name, "a YAML configuration file");
    Object root = SnakeYaml.parse(in, name);
    Map<String, String> flat = new LinkedHashMap<>();
    if (root != null) {
      if (!(root instanceof Map<?, ?> map)) {
        throw new OverloadConfigException(
            name,
            "overload-control configuration: "
                + name
                + " must hold a map of keys at its top level");
      }
      flatten("", map, flat);
    }
    return ConfigSource.of(name, flat);
  }

  /**
   * Parses the YAML file {@code file}, which configuration key {@code key} named (as {@code
   * value}, given in {@code origin}): the one way every adapter reads a file it was pointed to.
   *
   * @throws OverloadConfigException naming the key, its value and origin when there is no such
   *     file, or the file when it is not valid YAML
   * @throws UncheckedIOException when it cannot be read
   */
  public static ConfigSource loadFile(Path file, String key, String value, String origin) {
    if (!Files.isRegularFile(file)) {
      throw OverloadConfigException.of(
          key, value, origin, "no such file (" + file.toAbsolutePath() + ")");
    }
    try (InputStream in = Files.newInputStream(file)) {
      return load(in, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("overload-control: cannot read " + file + ": " + e, e);
    }
  }

  /**
   * Parses the YAML resource {@code name} on {@code loader}'s class path, which configuration
   * key {@code key} named (in {@code origin}).
   *
   * @throws OverloadConfigException naming the key when there is no such resource
   * @throws UncheckedIOException when it cannot be read
   */
  public static ConfigSource loadResource(
      ClassLoader loader, String name, String key, String origin) {
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        throw OverloadConfigException.of(key, name, origin, "not on the class path");
      }
      return load(in, "class path " + name);
    } catch (IOException e) {
      throw new UncheckedIOException("overload-control: cannot read " + name + ": " + e, e);
    }
  }

  private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey();
      Object v = e.getValue();
      if (v instanceof Map<?, ?> nested) {
        flatten(key, nested, out);
      } else if (v instanceof List<?> list) {
        out.put(key, list.stream().map(String::valueOf).collect(Collectors.joining(",")));
      } else {
        out.put(key, v == null ? "" : String.valueOf(v));
      }
    }
  }
}
