package org.overloadcontrol.internal.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Objects;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * The one precedence every adapter layers its configuration in, lowest first: the container's
 * request threads (as the default of {@code admission.maxLimit}), annotations, keys given in
 * code or by the container (init-params, builder keys, Spring properties), the application's
 * YAML file, the operator's file ({@value OperatorConfigFile#PROPERTY}). An adapter says what it
 * has at each level, in any order; {@link #read} puts the layers in that precedence, parses them
 * and validates the whole as one {@link Settings}, so that every adapter refuses the same inputs
 * with the same message naming the key, its value and its layer.
 */
public final class ConfigLayers {

  /** The levels, lowest precedence first; layers of one level keep the order they came in. */
  private enum Level {
    ANNOTATIONS,
    KEYS,
    FILE,
    OPERATOR
  }

  private final EnumMap<Level, List<ConfigSource>> layers = new EnumMap<>(Level.class);
  private String threadsOrigin;
  private int threads;
  private Collection<String> knownEndpoints;
  private String noRejectionHandler;

  private ConfigLayers() {
    for (Level level : Level.values()) {
      layers.put(level, new ArrayList<>());
    }
  }

  /** No layers yet: every key at its default. */
  public static ConfigLayers builder() {
    return new ConfigLayers();
  }

  /** Keys read from annotations (on servlets, resource classes, handler methods); null: none. */
  public ConfigLayers annotations(ConfigSource layer) {
    return add(Level.ANNOTATIONS, layer);
  }

  /** Keys given in code or by the container, above the annotations; null: none. */
  public ConfigLayers keys(ConfigSource layer) {
    return add(Level.KEYS, layer);
  }

  /** The application's YAML file, above the keys; null: none. */
  public ConfigLayers file(ConfigSource layer) {
    return add(Level.FILE, layer);
  }

  /** {@link #annotations(ConfigSource)} of a layer the adapter made; null: none. */
  public ConfigLayers annotations(KeyLayer layer) {
    return annotations(layer == null ? null : layer.source());
  }

  /** {@link #keys(ConfigSource)} of a layer the adapter made; null: none. */
  public ConfigLayers keys(KeyLayer layer) {
    return keys(layer == null ? null : layer.source());
  }

  /** {@link #file(ConfigSource)} of a file the adapter read; null: none. */
  public ConfigLayers file(KeyLayer layer) {
    return file(layer == null ? null : layer.source());
  }

  /** The keys a framework's routes read from its handlers' annotations, as annotations. */
  public ConfigLayers annotations(ContributedRoutes routes) {
    return annotations(routes.routes().annotations());
  }

  /** The framework's own properties its routes carry (Spring's), as keys. */
  public ConfigLayers keys(ContributedRoutes routes) {
    return keys(routes.routes().properties());
  }

  /**
   * The operator's file the system property {@value OperatorConfigFile#PROPERTY} names, over
   * everything else; nothing when the property is not set.
   *
   * @throws OverloadConfigException if there is no such file or it is not valid YAML
   * @throws java.io.UncheckedIOException if it cannot be read
   */
  public ConfigLayers operatorFile() {
    return add(Level.OPERATOR, OperatorConfigFile.fromSystemProperty());
  }

  /**
   * The container's request threads, the lowest layer: {@code admission.maxLimit} defaults to a
   * little under them ({@link AdmissionSettings#containerThreads}); nothing when {@code count} is
   * 0 or less (not known, or no pool bounds the requests).
   *
   * @param origin what the threads are, for the layer's name
   */
  public ConfigLayers containerThreads(String origin, int count) {
    this.threadsOrigin = Objects.requireNonNull(origin, "origin");
    this.threads = count;
    return this;
  }

  /**
   * The endpoints the adapter routes requests to by itself (servlet names and
   * {@code @Endpoint}s, handler methods, a default endpoint): {@link #read} refuses keys for an
   * endpoint that neither these nor a paths rule name.
   */
  public ConfigLayers knownEndpoints(Collection<String> names) {
    this.knownEndpoints = List.copyOf(names);
    return this;
  }

  /**
   * For an adapter without servlets: {@link #read} refuses a {@code rejectionHandler} key, with
   * {@code why} saying what to do instead.
   */
  public ConfigLayers noRejectionHandler(String why) {
    this.noRejectionHandler = Objects.requireNonNull(why, "why");
    return this;
  }

  private ConfigLayers add(Level level, ConfigSource layer) {
    if (layer != null) {
      layers.get(level).add(layer);
    }
    return this;
  }

  /**
   * Whether a layer above the annotations sets {@code key}: an annotation's conflict on a key
   * the configuration decides is no conflict.
   */
  public boolean setAboveAnnotations(String key) {
    return layers.entrySet().stream()
        .filter(e -> e.getKey() != Level.ANNOTATIONS)
        .flatMap(e -> e.getValue().stream())
        .anyMatch(layer -> layer.values().containsKey(key));
  }

  /**
   * Whether {@code admission.maxLimit} defaults to the container's threads: they were given and
   * no layer starts a limit above them (which would then start at the key's own default).
   */
  public boolean boundByThreads() {
    return threadsLayer() != null;
  }

  /** Every layer, lowest precedence first, the container's threads included. */
  public List<ConfigSource> layers() {
    List<ConfigSource> all = new ArrayList<>();
    ConfigSource threadsLayer = threadsLayer();
    if (threadsLayer != null) {
      all.add(threadsLayer);
    }
    layers.values().forEach(all::addAll);
    return all;
  }

  private ConfigSource threadsLayer() {
    if (threads <= 0) {
      return null;
    }
    List<ConfigSource> configured = new ArrayList<>();
    layers.values().forEach(configured::addAll);
    return AdmissionSettings.containerThreads(threadsOrigin, threads, configured);
  }

  /**
   * Parses the layers and validates every section, the rejection handler and the endpoints as
   * asked.
   *
   * @throws OverloadConfigException naming the key, value and layer of the first problem
   */
  public Settings read() {
    List<ConfigSource> all = layers();
    OverloadConfig config = OverloadConfig.parse(all);
    if (noRejectionHandler != null) {
      config.requireNoRejectionHandler(noRejectionHandler);
    }
    Settings settings = Settings.of(config);
    if (knownEndpoints != null) {
      settings.requireKnownEndpoints(all, knownEndpoints);
    }
    return settings;
  }
}
