package org.overloadcontrol.internal.config;

import java.util.Map;
import java.util.Objects;
import org.overloadcontrol.internal.base.ClassDefinition;

/**
 * What configuration says about one endpoint: its target, its default request class, and the
 * per-class targets and controller parameters set for it. Resolution against the global and
 * per-class settings happens in {@link OverloadConfig#settingsFor}.
 */
public final class EndpointSettings {

  private final String name;
  private final Long targetNanos;
  private final ClassDefinition defaultClass;
  final ParameterLayer controller;
  final Map<String, Long> classTargets;
  final Map<String, ParameterLayer> classControllers;

  EndpointSettings(
      String name,
      Long targetNanos,
      ClassDefinition defaultClass,
      ParameterLayer controller,
      Map<String, Long> classTargets,
      Map<String, ParameterLayer> classControllers) {
    this.name = Objects.requireNonNull(name, "name");
    this.targetNanos = targetNanos;
    this.defaultClass = defaultClass;
    this.controller = controller;
    this.classTargets = Map.copyOf(classTargets);
    this.classControllers = Map.copyOf(classControllers);
  }

  public String name() {
    return name;
  }

  /** The endpoint's p90 target in nanoseconds; 0 when explicitly none; null when not set. */
  public Long targetNanos() {
    return targetNanos;
  }

  /** The class of this endpoint's requests when no class rule matches, or null. */
  public ClassDefinition defaultClass() {
    return defaultClass;
  }
}
