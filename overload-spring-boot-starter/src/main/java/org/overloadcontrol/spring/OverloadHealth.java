package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.metrics.EndpointState;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.metrics.StateReading;
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
    if (!(context.getAttribute(Observability.ATTRIBUTE) instanceof Observability o)) {
      return new Reading(false, false, Map.of(), Map.of());
    }
    List<ControlledEndpoint> all = o.engine().endpoints();
    all.sort(Comparator.comparing(ControlledEndpoint::name));
    Map<String, Map<String, Object>> endpoints = new LinkedHashMap<>();
    boolean shedding = false;
    for (ControlledEndpoint e : all) {
      StateReading r = o.watch().reading(e.name());
      shedding |= r.state() == EndpointState.SHEDDING;
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("state", r.state().word());
      detail.put("refusedShare", r.refusedShare());
      endpoints.put(e.name(), detail);
    }
    Map<String, Integer> states = new LinkedHashMap<>();
    o.watch().counts(all).forEach((s, n) -> states.put(s.word(), n));
    return new Reading(true, failWhenShedding && shedding, states, endpoints);
  }
}
