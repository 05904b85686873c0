package org.overloadcontrol.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.overloadcontrol.internal.pipeline.Settings;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The application's {@code overload.*} properties (from {@code application.yaml}, the command
 * line, the environment) as one configuration layer with the filter's own keys: the prefix is
 * dropped and YAML lists ({@code paths[0]}, {@code paths[1]}) become the comma-separated value
 * the other layers use, so the keys, their validation and their error messages are those of the
 * YAML layer. Each key's origin names the property as written and the source it came from.
 * Keys under {@code overload.spring.} configure the starter itself and are left out, as is
 * {@code overload.configFile} (the operator's file, which the filter reads itself).
 *
 * <p>Spring's relaxed names: the first and the last segment of a key are the library's own
 * words, so there {@code max-wait} and {@code max_wait} mean {@code maxWait}
 * ({@code overload.virtual-queue.key-file} is {@code virtualQueue.keyFile}); the segments
 * between them may be names the application chose (an endpoint, a class, a group) and are kept
 * as written. A key that is still unknown is refused with the property's name as written in
 * its origin. Environment variables ({@code OVERLOAD_QUEUE_MAXWAIT}) are not read: their
 * upper-case form cannot tell a word from a name.
 */
final class SpringProperties {

  static final String PREFIX = "overload.";
  static final String STARTER_PREFIX = "overload.spring.";
  private static final Pattern INDEXED = Pattern.compile("(.*)\\[(\\d+)]$");

  private SpringProperties() {}

  static KeyLayer layer(ConfigurableEnvironment environment) {
    // Property sources in precedence order: the first that names a key decides its origin.
    Map<String, String> originByName = new LinkedHashMap<>();
    for (PropertySource<?> source : environment.getPropertySources()) {
      if (source instanceof EnumerablePropertySource<?> enumerable) {
        for (String name : enumerable.getPropertyNames()) {
          if (name.startsWith(PREFIX)
              && !name.startsWith(STARTER_PREFIX)
              && !name.equals(PREFIX + "configFile")) {
            originByName.putIfAbsent(name, source.getName());
          }
        }
      }
    }
    Map<String, TreeMap<Integer, String>> lists = new LinkedHashMap<>();
    Map<String, String> listOrigins = new LinkedHashMap<>();
    KeyLayer.Builder layer = KeyLayer.builder("Spring properties");
    for (Map.Entry<String, String> e : originByName.entrySet()) {
      String name = e.getKey();
      String value = environment.getProperty(name);
      if (value == null) {
        continue;
      }
      String key = relaxed(name.substring(PREFIX.length()));
      Matcher indexed = INDEXED.matcher(key);
      if (indexed.matches()) {
        lists
            .computeIfAbsent(indexed.group(1), k -> new TreeMap<>())
            .put(Integer.parseInt(indexed.group(2)), value);
        listOrigins.putIfAbsent(
            indexed.group(1), origin(name.substring(0, name.lastIndexOf('[')), e.getValue()));
      } else if (layer.get(key) == null) {
        // Of two spellings of one key, the property source with precedence wins.
        layer.put(key, value, origin(name, e.getValue()));
      }
    }
    lists.forEach(
        (key, items) ->
            layer.put(
                key, String.join(",", new ArrayList<>(items.values())), listOrigins.get(key)));
    if (layer.get("bypass.paths") == null) {
      layer.put(
          "bypass.paths",
          String.join(",", actuatorProbes(environment)),
          "the starter's default (set overload.bypass.paths to change it)");
    }
    return layer.build();
  }

  /**
   * The usual probe paths plus the actuator's health, metrics, Prometheus and overload-status
   * paths under its configured base path: probes and scrapes never compete with the
   * application's requests, as the status servlet does not in a WAR.
   */
  static List<String> actuatorProbes(ConfigurableEnvironment environment) {
    String base = environment.getProperty("management.endpoints.web.base-path", "/actuator");
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    List<String> paths = new ArrayList<>(Settings.DEFAULT_BYPASS_PATHS);
    for (String probe : List.of("/health/*", "/metrics/*", "/prometheus", "/overload")) {
      String path = base + probe;
      if (!paths.contains(path)) {
        paths.add(path);
      }
    }
    return paths;
  }

  /** The library's key for {@code key} as written: its first and last segment in camelCase. */
  static String relaxed(String key) {
    int first = key.indexOf('.');
    if (first < 0) {
      return camelCase(key);
    }
    int last = key.lastIndexOf('.');
    return camelCase(key.substring(0, first))
        + key.substring(first, last + 1)
        + camelCase(key.substring(last + 1));
  }

  private static String camelCase(String segment) {
    if (segment.indexOf('-') < 0 && segment.indexOf('_') < 0) {
      return segment;
    }
    StringBuilder b = new StringBuilder(segment.length());
    boolean upper = false;
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '-' || c == '_') {
        upper = b.length() > 0;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }

  private static String origin(String property, String source) {
    return "Spring property '" + property + "' in " + source;
  }
}
