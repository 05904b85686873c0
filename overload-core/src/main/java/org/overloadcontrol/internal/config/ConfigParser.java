package org.overloadcontrol.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.ClassRule;
import org.overloadcontrol.internal.classify.EndpointRule;
import org.overloadcontrol.internal.classify.PathPattern;

/**
 * Turns layers of flat keys into an {@link OverloadConfig}, refusing anything it does not
 * understand: an unknown key, a value of the wrong form, a class used but never defined.
 * Later layers override earlier ones key by key. Every error names the key, quotes the value,
 * says which layer it came from and what is allowed.
 */
public final class ConfigParser {

  /** A class's keys: the class in group 1, the rest of the key in group 2. */
  private static final Pattern CLASS_KEY = CoreKeyTable.CORE.keysUnder("classes.<c>.");

  /** An endpoint's keys: the endpoint in group 1, the rest of the key in group 2. */
  private static final Pattern ENDPOINT_KEY = CoreKeyTable.CORE.keysUnder("endpoints.<e>.");

  private static final String CONTROLLER = "controller.";
  private static final String MATCH = "match.";
  private static final String CLASSES = "classes.";
  private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  /** The core keys without a name of the user's in them: the global switches. */
  private static final Set<String> GLOBAL_KEYS =
      CoreKeyTable.CORE.keys().stream()
          .map(Key::name)
          .filter(name -> !name.contains("<"))
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private record Value(String key, String value, String origin) {}

  /**
   * Prefixes whose keys belong to a feature that parses them itself (see
   * {@link OverloadConfig#section}); the features validate them when they start.
   */
  /** The p90 target of endpoint {@code <e>}; null for none. */
  public static final Key<Duration> ENDPOINT_TARGET = CoreKeyTable.ENDPOINT_TARGET;

  /** The rank of class {@code <c>}. */
  public static final Key<Integer> CLASS_RANK = CoreKeyTable.CLASS_RANK;

  /** The kind of class {@code <c>}. */
  public static final Key<RequestKind> CLASS_KIND = CoreKeyTable.CLASS_KIND;

  /** The utility of class {@code <c>}. */
  public static final Key<Double> CLASS_UTILITY = CoreKeyTable.CLASS_UTILITY;

  /** The path patterns routed to endpoint {@code <e>}, comma-separated. */
  public static final Key<String> ENDPOINT_PATHS = CoreKeyTable.ENDPOINT_PATHS;

  /** The class of endpoint {@code <e>}'s requests that no rule classifies. */
  public static final Key<String> ENDPOINT_CLASS = CoreKeyTable.ENDPOINT_CLASS;

  /** The proxies whose forwarded headers are believed, comma-separated. */
  public static final Key<String> TRUSTED_PROXIES = CoreKeyTable.TRUSTED_PROXIES;

  /** The conditions of class {@code <c>}'s rule: {@code classes.<c>.match.path}, ... */
  public static final List<Key<String>> CLASS_MATCH =
      List.of(
          CoreKeyTable.CLASS_MATCH_PATH,
          CoreKeyTable.CLASS_MATCH_METHOD,
          CoreKeyTable.CLASS_MATCH_HEADER,
          CoreKeyTable.CLASS_MATCH_COOKIE,
          CoreKeyTable.CLASS_MATCH_CLIENT);

  /** The core keys (prefix empty): the table of the keys above. */
  public static KeyTable coreKeyTable() {
    return CoreKeyTable.CORE;
  }

  public static final Set<String> SECTIONS =
      Set.of(
          "admission",
          "bandwidth",
          "virtualQueue",
          "queue",
          "degrade",
          "metrics",
          "status",
          "sessions",
          "bypass",
          "cluster");

  private ConfigParser() {}

  /** Key forms, for the message about an unknown key: the core table's names, the sections. */
  private static String keyForms() {
    StringBuilder sections = new StringBuilder();
    for (String section : new java.util.TreeSet<>(SECTIONS)) {
      sections.append(sections.length() == 0 ? "" : ", ").append(section).append(".*");
    }
    return String.join(", ", CoreKeyTable.CORE.names())
        + ", and the feature sections "
        + sections
        + "; parameters: "
        + String.join(", ", new java.util.TreeSet<>(ParameterLayer.NAMES));
  }

  /**
   * The tables of the keys read here: the core keys, the rate controller's parameters and the
   * probe paths ({@code bypass.}).
   */
  public static List<KeyTable> keyTables() {
    return List.of(CoreKeyTable.CORE, CoreKeyTable.CONTROLLER, CoreKeyTable.BYPASS);
  }

  /** Parses {@code layers}, lowest precedence first. */
  public static OverloadConfig parse(List<ConfigSource> layers) {
    Map<String, Value> merged = new LinkedHashMap<>();
    for (ConfigSource layer : layers) {
      layer.values().forEach((k, v) -> merged.put(k, new Value(k, v, layer.origin(k))));
    }
    return new ConfigParser().build(merged);
  }

  // Gathered while reading keys, then resolved.
  private final Map<String, Value> globals = new HashMap<>();
  private final Map<String, Map<String, Value>> classAttrs = new TreeMap<>();
  private final Map<String, Map<String, Value>> classMatch = new TreeMap<>();
  private final Map<String, ParameterLayer> classControllers = new HashMap<>();
  private final Map<String, Map<String, Value>> endpointAttrs = new LinkedHashMap<>();
  private final Map<String, ParameterLayer> endpointControllers = new HashMap<>();
  private final Map<String, Map<String, Value>> endpointClassTargets = new HashMap<>();
  private final Map<String, Map<String, ParameterLayer>> endpointClassControllers = new HashMap<>();
  private final ParameterLayer globalController = new ParameterLayer();
  private final Map<String, Map<String, Value>> sections = new HashMap<>();

  /** The effective value of every key, for comparing one configuration with the next. */
  private static Map<String, String> flat(Map<String, Value> merged) {
    Map<String, String> values = new TreeMap<>();
    merged.forEach((k, v) -> values.put(k, v.value()));
    return values;
  }

  /** Where each key's effective value came from, for messages about a change to it. */
  private static Map<String, String> origins(Map<String, Value> merged) {
    Map<String, String> origins = new HashMap<>();
    merged.forEach((k, v) -> origins.put(k, v.origin()));
    return origins;
  }

  private OverloadConfig build(Map<String, Value> merged) {
    for (Value v : merged.values()) {
      read(v);
    }
    Map<String, ClassDefinition> classes = defineClasses();
    String defaultName = valueOr("defaultClass", ClassDefinition.DEFAULT_NAME);
    ClassDefinition defaultClass = classes.get(defaultName);
    if (defaultClass == null) {
      Value v = globals.get("defaultClass");
      throw OverloadConfigException.of(
          "defaultClass", defaultName, v.origin(), unknownClass(defaultName, classes));
    }
    Map<String, Long> classTargets = new HashMap<>();
    classAttrs.forEach(
        (name, attrs) -> {
          Value t = attrs.get("target");
          if (t != null) {
            classTargets.put(name, target(t));
          }
        });
    List<ClassRule> rules = classRules(classes);
    Map<String, EndpointSettings> endpoints = new LinkedHashMap<>();
    List<EndpointRule> endpointRules = new ArrayList<>();
    Set<String> endpointNames = new LinkedHashSet<>(endpointAttrs.keySet());
    endpointNames.addAll(endpointControllers.keySet());
    endpointNames.addAll(endpointClassTargets.keySet());
    endpointNames.addAll(endpointClassControllers.keySet());
    for (String name : endpointNames) {
      Map<String, Value> attrs = endpointAttrs.getOrDefault(name, Map.of());
      Long target = attrs.containsKey("target") ? target(attrs.get("target")) : null;
      ClassDefinition endpointClass = null;
      Value cls = attrs.get("class");
      if (cls != null) {
        endpointClass = classes.get(cls.value());
        if (endpointClass == null) {
          throw OverloadConfigException.of(
              cls.key(), cls.value(), cls.origin(), unknownClass(cls.value(), classes));
        }
      }
      Map<String, Long> perClassTargets = new HashMap<>();
      endpointClassTargets
          .getOrDefault(name, Map.of())
          .forEach(
              (c, v) -> {
                requireClass(c, v, classes);
                perClassTargets.put(c, target(v));
              });
      Map<String, ParameterLayer> perClassControllers =
          endpointClassControllers.getOrDefault(name, Map.of());
      endpoints.put(
          name,
          new EndpointSettings(
              name,
              target,
              endpointClass,
              endpointControllers.getOrDefault(name, ParameterLayer.EMPTY),
              perClassTargets,
              perClassControllers));
      Value paths = attrs.get("paths");
      if (paths != null) {
        endpointRules.add(new EndpointRule(name, pathPatterns(paths)));
      }
    }
    OverloadConfig config =
        new OverloadConfig(
            read(CoreKeyTable.ENABLED, globals.get("enabled")),
            classes,
            defaultClass,
            rules,
            endpointRules,
            endpoints,
            addresses(globals.get("trustedProxies")),
            valueOr("requestStart.header", CoreKeyTable.REQUEST_START_HEADER.fallback()),
            read(CoreKeyTable.REQUEST_START_MAX_AGE, globals.get("requestStart.maxAge")),
            read(CoreKeyTable.RETRY_AFTER_MIN, globals.get("retryAfter.min")),
            read(CoreKeyTable.RETRY_AFTER_MAX, globals.get("retryAfter.max")),
            globals.containsKey("rejectionHandler")
                ? globals.get("rejectionHandler").value()
                : null,
            read(CoreKeyTable.REJECTION_STATUS, globals.get("rejectionStatus")),
            globalController,
            classControllers,
            classTargets,
            sections(),
            flat(merged),
            origins(merged));
    if (config.retryAfterMaxNanos() < config.retryAfterMinNanos()) {
      // Blame the key the user wrote: a raised minimum is at fault, not the default maximum.
      String key = globals.containsKey("retryAfter.max") ? "retryAfter.max" : "retryAfter.min";
      Value v = globals.get(key);
      throw OverloadConfigException.of(
          key,
          v.value(),
          v.origin(),
          "retryAfter.max ("
              + Duration.ofNanos(config.retryAfterMaxNanos())
              + ") must not be below retryAfter.min ("
              + Duration.ofNanos(config.retryAfterMinNanos())
              + ")");
    }
    validateSettings(config, classes);
    return config;
  }

  private void read(Value v) {
    String key = v.key();
    if (GLOBAL_KEYS.contains(key)) {
      globals.put(key, v);
      return;
    }
    int dot = key.indexOf('.');
    if (dot > 0 && SECTIONS.contains(key.substring(0, dot))) {
      sections
          .computeIfAbsent(key.substring(0, dot), k -> new LinkedHashMap<>())
          .put(key.substring(dot + 1), v);
      return;
    }
    if (!CoreKeyTable.CORE.accepts(key)) {
      throw OverloadConfigException.of(
          key, v.value(), v.origin(), "unknown key; the keys are " + keyForms());
    }
    // The table accepted the key; what is left is to take out the names the user chose.
    if (key.startsWith(CONTROLLER)) {
      putParameter(globalController, key.substring(CONTROLLER.length()), v);
      return;
    }
    Matcher m = CLASS_KEY.matcher(key);
    if (m.matches()) {
      readClassKey(className(m.group(1), v), m.group(2), v);
      return;
    }
    m = ENDPOINT_KEY.matcher(key);
    if (m.matches()) {
      readEndpointKey(m.group(1), m.group(2), v);
      return;
    }
    throw OverloadConfigException.of(
        key, v.value(), v.origin(), "unknown key; the keys are " + keyForms());
  }

  /** {@code classes.<c>.rest}: an attribute, a controller parameter or a match condition. */
  private void readClassKey(String c, String rest, Value v) {
    Map<String, Value> attrs = classAttrs.computeIfAbsent(c, k -> new HashMap<>());
    if (rest.startsWith(CONTROLLER)) {
      putParameter(
          classControllers.computeIfAbsent(c, k -> new ParameterLayer()),
          rest.substring(CONTROLLER.length()),
          v);
    } else if (rest.startsWith(MATCH)) {
      classMatch.computeIfAbsent(c, k -> new HashMap<>()).put(rest.substring(MATCH.length()), v);
    } else {
      attrs.put(rest, v);
    }
  }

  /**
   * {@code endpoints.<e>.rest}: an attribute, a controller parameter, or a class's target or
   * parameter at the endpoint ({@code classes.<c>.target}, {@code classes.<c>.controller.<p>}).
   */
  private void readEndpointKey(String e, String rest, Value v) {
    if (rest.startsWith(CLASSES)) {
      int dot = rest.indexOf('.', CLASSES.length());
      String c = className(rest.substring(CLASSES.length(), dot), v);
      String tail = rest.substring(dot + 1);
      if (tail.startsWith(CONTROLLER)) {
        putParameter(
            endpointClassControllers
                .computeIfAbsent(e, k -> new HashMap<>())
                .computeIfAbsent(c, k -> new ParameterLayer()),
            tail.substring(CONTROLLER.length()),
            v);
      } else {
        endpointClassTargets.computeIfAbsent(e, k -> new HashMap<>()).put(c, v);
      }
    } else if (rest.startsWith(CONTROLLER)) {
      putParameter(
          endpointControllers.computeIfAbsent(e, k -> new ParameterLayer()),
          rest.substring(CONTROLLER.length()),
          v);
    } else {
      endpointAttrs.computeIfAbsent(e, k -> new HashMap<>()).put(rest, v);
    }
  }

  private static void putParameter(ParameterLayer layer, String name, Value v) {
    if (!ParameterLayer.NAMES.contains(name)) {
      throw OverloadConfigException.of(
          v.key(),
          v.value(),
          v.origin(),
          "unknown controller"
              + " parameter '"
              + name
              + "'; the parameters are "
              + String.join(", ", new java.util.TreeSet<>(ParameterLayer.NAMES)));
    }
    layer.put(name, v.key(), v.value(), v.origin());
  }

  private static String className(String name, Value v) {
    if (!CLASS_NAME.matcher(name).matches()) {
      throw OverloadConfigException.of(
          v.key(),
          v.value(),
          v.origin(),
          "class name '" + name + "' may use only letters, digits, '_' and '-'");
    }
    return name;
  }

  private Map<String, ClassDefinition> defineClasses() {
    Map<String, ClassDefinition> classes = new LinkedHashMap<>();
    classes.put(ClassDefinition.DEFAULT_NAME, ClassDefinition.defaultClass());
    classAttrs.forEach(
        (name, attrs) -> {
          int rank = read(CoreKeyTable.CLASS_RANK, attrs.get("rank"));
          RequestKind kind = read(CoreKeyTable.CLASS_KIND, attrs.get("kind"));
          double utility = read(CoreKeyTable.CLASS_UTILITY, attrs.get("utility"));
          classes.put(name, new ClassDefinition(name, rank, kind, utility));
        });
    return classes;
  }

  private List<ClassRule> classRules(Map<String, ClassDefinition> classes) {
    List<ClassRule> rules = new ArrayList<>();
    classMatch.forEach(
        (name, conditions) -> {
          List<PathPattern> paths =
              conditions.containsKey("path") ? pathPatterns(conditions.get("path")) : List.of();
          Set<String> methods = new LinkedHashSet<>();
          Value m = conditions.get("method");
          if (m != null) {
            for (String s : m.value().split(",")) {
              if (!s.isBlank()) {
                if (!s.trim().matches("[A-Za-z]+")) {
                  throw OverloadConfigException.of(
                      m.key(), m.value(), m.origin(), "methods are words such as GET, POST");
                }
                methods.add(s.trim());
              }
            }
          }
          ClassRule.NameValue header = nameValue(conditions.get("header"));
          ClassRule.NameValue cookie = nameValue(conditions.get("cookie"));
          AddressMatcher clients = addresses(conditions.get("client"));
          rules.add(new ClassRule(classes.get(name), paths, methods, header, cookie, clients));
        });
    rules.sort(Comparator.comparing(ClassRule::requestClass));
    return rules;
  }

  private Map<String, ConfigSection> sections() {
    Map<String, ConfigSection> out = new HashMap<>();
    sections.forEach(
        (prefix, entries) -> {
          Map<String, String> values = new LinkedHashMap<>();
          Map<String, String> origins = new LinkedHashMap<>();
          entries.forEach(
              (k, v) -> {
                values.put(k, v.value());
                origins.put(k, v.origin());
              });
          out.put(prefix, new ConfigSection(prefix, values, origins));
        });
    return out;
  }

  private static ClassRule.NameValue nameValue(Value v) {
    if (v == null) {
      return null;
    }
    try {
      return ClassRule.NameValue.parse(v.value());
    } catch (IllegalArgumentException e) {
      throw OverloadConfigException.of(v.key(), v.value(), v.origin(), e.getMessage());
    }
  }

  private static List<PathPattern> pathPatterns(Value v) {
    List<PathPattern> patterns = new ArrayList<>();
    for (String s : v.value().split(",")) {
      if (s.isBlank()) {
        continue;
      }
      try {
        patterns.add(PathPattern.parse(s));
      } catch (IllegalArgumentException e) {
        throw OverloadConfigException.of(v.key(), v.value(), v.origin(), e.getMessage());
      }
    }
    if (patterns.isEmpty()) {
      throw OverloadConfigException.of(
          v.key(), v.value(), v.origin(), "needs at least one path pattern, such as /api/*");
    }
    return patterns;
  }

  private static AddressMatcher addresses(Value v) {
    if (v == null) {
      return AddressMatcher.none();
    }
    try {
      return AddressMatcher.parse(Arrays.asList(v.value().split(",")));
    } catch (IllegalArgumentException e) {
      throw OverloadConfigException.of(v.key(), v.value(), v.origin(), e.getMessage());
    }
  }

  /** A target: a positive duration, or "none" / "off" for measured but not controlled (0). */
  private static long target(Value v) {
    Duration d = read(CoreKeyTable.ENDPOINT_TARGET, v);
    return d == null ? 0L : d.toNanos();
  }

  /** The value of {@code v} read by {@code key}'s codec, or the key's default when it is absent. */
  private static <T> T read(Key<T> key, Value v) {
    if (v == null) {
      return key.fallback();
    }
    try {
      return key.codec().parse(v.value().trim());
    } catch (IllegalArgumentException e) {
      throw OverloadConfigException.of(v.key(), v.value(), v.origin(), e.getMessage());
    }
  }

  private String valueOr(String key, String fallback) {
    Value v = globals.get(key);
    return v == null || v.value().isBlank() ? fallback : v.value().trim();
  }

  private static void requireClass(String name, Value v, Map<String, ClassDefinition> classes) {
    if (!classes.containsKey(name)) {
      throw OverloadConfigException.of(v.key(), v.value(), v.origin(), unknownClass(name, classes));
    }
  }

  private void validateSettings(OverloadConfig config, Map<String, ClassDefinition> classes) {
    endpointClassControllers.forEach(
        (endpoint, perClass) ->
            perClass.forEach(
                (c, layer) -> {
                  if (!classes.containsKey(c)) {
                    throw new OverloadConfigException(
                        "endpoints." + endpoint + ".classes." + c,
                        "overload-control configuration: endpoints."
                            + endpoint
                            + ".classes."
                            + c
                            + ".controller: "
                            + unknownClass(c, classes));
                  }
                }));
    // Build every combination once so a contradiction fails now, not at the first request.
    for (ClassDefinition c : classes.values()) {
      config.settingsFor("", c);
      for (String endpoint : config.endpoints().keySet()) {
        config.settingsFor(endpoint, c);
      }
    }
  }

  private static String unknownClass(String name, Map<String, ClassDefinition> classes) {
    return "unknown request class '"
        + name
        + "'; defined classes: "
        + String.join(", ", new java.util.TreeSet<>(classes.keySet()))
        + " (define one with classes."
        + name
        + ".rank, or @RequestClass)";
  }
}
