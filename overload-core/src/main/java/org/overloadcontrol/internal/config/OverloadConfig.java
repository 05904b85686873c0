package org.overloadcontrol.internal.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.admission.ClassSettings;
import org.overloadcontrol.internal.admission.ControllerParameters;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.classify.AddressMatcher;
import org.overloadcontrol.internal.classify.BypassPaths;
import org.overloadcontrol.internal.classify.ClassRule;
import org.overloadcontrol.internal.classify.EndpointRule;

/**
 * The whole configuration of one filter or handler, immutable and validated once, when it
 * starts. Built by {@link ConfigParser} from layers of flat keys (annotations &lt; init-params
 * &lt; YAML); see README.md for every key and its default.
 *
 * <p>Resolution of the settings of class c at endpoint e, most specific first: target from
 * {@code endpoints.e.classes.c.target}, {@code endpoints.e.target}, {@code classes.c.target};
 * each controller parameter from {@code endpoints.e.classes.c.controller.*},
 * {@code endpoints.e.controller.*}, {@code classes.c.controller.*}, {@code controller.*}, and
 * the published default.
 */
public final class OverloadConfig {

  private final boolean enabled;
  private final Map<String, ClassDefinition> classes;
  private final ClassDefinition defaultClass;
  private final List<ClassRule> classRules;
  private final List<EndpointRule> endpointRules;
  private final Map<String, EndpointSettings> endpoints;
  private final AddressMatcher trustedProxies;
  private final String requestStartHeader;
  private final long requestStartMaxAgeNanos;
  private final long retryAfterMinNanos;
  private final long retryAfterMaxNanos;
  private final String rejectionHandler;
  private final int rejectionStatus;
  private final ParameterLayer globalController;
  private final Map<String, ParameterLayer> classControllers;
  private final Map<String, Long> classTargets;
  private final Map<String, ConfigSection> sections;
  private final java.util.SortedMap<String, String> values;
  private final Map<String, String> origins;

  OverloadConfig(
      boolean enabled,
      Map<String, ClassDefinition> classes,
      ClassDefinition defaultClass,
      List<ClassRule> classRules,
      List<EndpointRule> endpointRules,
      Map<String, EndpointSettings> endpoints,
      AddressMatcher trustedProxies,
      String requestStartHeader,
      long requestStartMaxAgeNanos,
      long retryAfterMinNanos,
      long retryAfterMaxNanos,
      String rejectionHandler,
      int rejectionStatus,
      ParameterLayer globalController,
      Map<String, ParameterLayer> classControllers,
      Map<String, Long> classTargets,
      Map<String, ConfigSection> sections,
      Map<String, String> values,
      Map<String, String> origins) {
    this.enabled = enabled;
    this.classes = Map.copyOf(classes);
    this.defaultClass = defaultClass;
    this.classRules = List.copyOf(classRules);
    this.endpointRules = List.copyOf(endpointRules);
    this.endpoints = Map.copyOf(endpoints);
    this.trustedProxies = trustedProxies;
    this.requestStartHeader = requestStartHeader;
    this.requestStartMaxAgeNanos = requestStartMaxAgeNanos;
    this.retryAfterMinNanos = retryAfterMinNanos;
    this.retryAfterMaxNanos = retryAfterMaxNanos;
    this.rejectionHandler = rejectionHandler;
    this.rejectionStatus = rejectionStatus;
    this.globalController = globalController;
    this.classControllers = Map.copyOf(classControllers);
    this.classTargets = Map.copyOf(classTargets);
    this.sections = Map.copyOf(sections);
    this.values = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(values));
    this.origins = Map.copyOf(origins);
  }

  /** The layer {@code key}'s effective value came from, or null when it was not set. */
  public String origin(String key) {
    return origins.get(key);
  }

  /**
   * Every key that was set, with the value that won over the lower layers, sorted by key: what
   * a reload compares with the running configuration to say which keys changed.
   */
  public java.util.SortedMap<String, String> values() {
    return values;
  }

  /**
   * The probe paths no adapter controls ({@code bypass.paths}; see {@link BypassPaths}).
   *
   * @throws OverloadConfigException naming the key and value when they are not valid
   */
  public BypassPaths bypassPaths() {
    ConfigSection bypass = section("bypass");
    if (bypass.isEmpty()) {
      return BypassPaths.defaults();
    }
    bypass.requireOnly(CoreKeyTable.BYPASS);
    return bypass.parse("paths", BypassPaths::parse, BypassPaths.defaults());
  }

  /**
   * The keys under a feature's prefix (one of {@link ConfigParser#SECTIONS}), for the feature
   * to parse and validate; empty when none was set.
   */
  public ConfigSection section(String prefix) {
    return sections.getOrDefault(prefix, ConfigSection.empty(prefix));
  }

  /** The configuration with every default and nothing controlled. */
  public static OverloadConfig defaults() {
    return ConfigParser.parse(List.of());
  }

  /** Parses layers of flat keys, lowest precedence first. */
  public static OverloadConfig parse(List<ConfigSource> layers) {
    return ConfigParser.parse(layers);
  }

  /** Parses one layer of flat keys, e.g. from a Java builder or a test. */
  public static OverloadConfig of(Map<String, String> values) {
    return ConfigParser.parse(List.of(ConfigSource.of("configuration", values)));
  }

  /** Whether the filter acts at all ({@code enabled}, default true). */
  public boolean enabled() {
    return enabled;
  }

  /** Every defined class by name, the default class included. */
  public Map<String, ClassDefinition> classes() {
    return classes;
  }

  public ClassDefinition defaultClass() {
    return defaultClass;
  }

  public Optional<ClassDefinition> requestClass(String name) {
    return Optional.ofNullable(classes.get(name));
  }

  /** Class rules, highest class rank first; the first that matches classifies the request. */
  public List<ClassRule> classRules() {
    return classRules;
  }

  /** Path rules naming endpoints; the first that matches names the request's endpoint. */
  public List<EndpointRule> endpointRules() {
    return endpointRules;
  }

  /** The endpoints named in configuration. */
  public Map<String, EndpointSettings> endpoints() {
    return endpoints;
  }

  public AddressMatcher trustedProxies() {
    return trustedProxies;
  }

  /** The header a trusted proxy sets with the time it received the request. */
  public String requestStartHeader() {
    return requestStartHeader;
  }

  public long requestStartMaxAgeNanos() {
    return requestStartMaxAgeNanos;
  }

  public long retryAfterMinNanos() {
    return retryAfterMinNanos;
  }

  public long retryAfterMaxNanos() {
    return retryAfterMaxNanos;
  }

  /**
   * The status a refusal is answered with: 503 or 429, or 0 for {@code auto} (503, and 429 on a
   * container that closes the connection after every 503; the adapter knows its container).
   */
  public int rejectionStatus() {
    return rejectionStatus;
  }

  /** The class name of the application's rejection handler, or null for the default. */
  public String rejectionHandler() {
    return rejectionHandler;
  }

  /**
   * For an adapter that has no servlet to hand a {@code RejectionHandler}: fails, naming the key,
   * when one is configured.
   *
   * @param why what the user should do instead
   */
  public void requireNoRejectionHandler(String why) {
    if (rejectionHandler != null && !rejectionHandler.isBlank()) {
      throw OverloadConfigException.of("rejectionHandler", rejectionHandler, null, why);
    }
  }

  /** The default class of endpoint {@code endpoint} from configuration, if one is set. */
  public Optional<ClassDefinition> endpointClass(String endpoint) {
    EndpointSettings e = endpoints.get(endpoint);
    return e == null ? Optional.empty() : Optional.ofNullable(e.defaultClass());
  }

  /** The target and controller parameters of class {@code c} at endpoint {@code endpoint}. */
  public ClassSettings settingsFor(String endpoint, ClassDefinition c) {
    Objects.requireNonNull(c, "class");
    EndpointSettings e = endpoints.get(endpoint);
    Long target = null;
    if (e != null) {
      target = e.classTargets.get(c.name());
      if (target == null) {
        target = e.targetNanos();
      }
    }
    if (target == null) {
      target = classTargets.get(c.name());
    }
    // Least specific first, the order in which they are applied.
    List<ParameterLayer> layers =
        e == null
            ? List.of(
                globalController, classControllers.getOrDefault(c.name(), ParameterLayer.EMPTY))
            : List.of(
                globalController,
                classControllers.getOrDefault(c.name(), ParameterLayer.EMPTY),
                e.controller,
                e.classControllers.getOrDefault(c.name(), ParameterLayer.EMPTY));
    ControllerParameters.Builder b = ControllerParameters.custom();
    for (ParameterLayer layer : layers) {
      layer.applyTo(b);
    }
    ControllerParameters parameters;
    try {
      parameters = b.build();
    } catch (ControllerParameters.Conflict ex) {
      throw conflict(ex, layers, endpoint, c);
    }
    return new ClassSettings(target == null ? 0L : target, parameters);
  }

  /**
   * A contradiction between controller parameters, blamed on the most specific key the user
   * wrote among them (as written, with its value and layer); the others are named the same way,
   * or as defaults.
   */
  private static OverloadConfigException conflict(
      ControllerParameters.Conflict ex,
      List<ParameterLayer> layers,
      String endpoint,
      ClassDefinition c) {
    ParameterLayer.Entry blamed = null;
    StringBuilder others = new StringBuilder();
    for (int i = layers.size() - 1; i >= 0 && blamed == null; i--) {
      for (String name : ex.parameters()) {
        ParameterLayer.Entry entry = layers.get(i).entry(name);
        if (entry != null) {
          blamed = entry;
          break;
        }
      }
    }
    for (String name : ex.parameters()) {
      ParameterLayer.Entry entry = null;
      for (int i = layers.size() - 1; i >= 0 && entry == null; i--) {
        entry = layers.get(i).entry(name);
      }
      if (entry == blamed) {
        continue;
      }
      others.append("; ").append(name);
      if (entry == null) {
        others.append(" is the default");
      } else {
        others
            .append(" from key '")
            .append(entry.key())
            .append("' = '")
            .append(entry.value())
            .append("' (from ")
            .append(entry.origin())
            .append(')');
      }
    }
    String scope =
        " (the controller of class '"
            + c.name()
            + (endpoint.isEmpty() ? "'" : "' at endpoint '" + endpoint + "'")
            + ")";
    if (blamed == null) {
      // Unreachable while the published defaults agree with each other.
      return new OverloadConfigException(
          "controller", "overload-control configuration:" + scope + " " + ex.getMessage());
    }
    return OverloadConfigException.of(
        blamed.key(), blamed.value(), blamed.origin(), ex.getMessage() + others + scope);
  }
}
