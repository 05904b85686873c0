package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.overloadcontrol.internal.pipeline.EndpointStates;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * What the {@code overload} health contributor reports, worked out without Spring Boot's health
 * API (which moved between Spring Boot 3 and 4): each endpoint's state, the same word the log,
 * the metrics and the dashboard use, and whether a shedding endpoint makes the application
 * {@code OUT_OF_SERVICE} ({@code overload.spring.health.fail-when-shedding}). Each major's
 * contributor only translates it.
 */
final class OverloadHealth {

  static final String FAIL_WHEN_SHEDDING = "overload.spring.health.fail-when-shedding";

  /** The name {@link #FAIL_WHEN_SHEDDING} had before endpoints had a state; still read. */
  static final String FAIL_WHEN_OVERLOADED = "overload.spring.health.fail-when-overloaded";

  /**
   * One reading: {@code known} is false before the filter has started.
   *
   * @param states how many endpoints are in each state, by its word
   * @param endpoints each endpoint's state and share refused, by the endpoint's name
   */
  record Reading(
      boolean known,
      boolean outOfService,
      Map<String, Integer> states,
      Map<String, Map<String, Object>> endpoints) {}

  private final ServletContext context;
  private final boolean failWhenShedding;

  OverloadHealth(ServletContext context, ConfigurableEnvironment environment) {
    this.context = context;
    this.failWhenShedding =
        environment.getProperty(
            FAIL_WHEN_SHEDDING,
            Boolean.class,
            environment.getProperty(FAIL_WHEN_OVERLOADED, Boolean.class, false));
  }

  Reading read() {
    ObservabilityHandle o =
        ObservabilityHandle.of(context.getAttribute(ObservabilityHandle.ATTRIBUTE));
    if (o == null) {
      return new Reading(false, false, Map.of(), Map.of());
    }
    EndpointStates now = o.endpointStates();
    Map<String, Map<String, Object>> endpoints = new LinkedHashMap<>();
    for (EndpointStates.Reading e : now.endpoints()) {
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("state", e.state());
      detail.put("refusedShare", e.refusedShare());
      endpoints.put(e.endpoint(), detail);
    }
    return new Reading(
        true, failWhenShedding && now.anyShedding(), new LinkedHashMap<>(now.counts()), endpoints);
  }
}
