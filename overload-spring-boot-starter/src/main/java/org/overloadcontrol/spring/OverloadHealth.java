package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.engine.ControlledEndpoint;
import org.overloadcontrol.metrics.Observability;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * What the {@code overload} health contributor reports, worked out without Spring Boot's health
 * API (which moved between Spring Boot 3 and 4): the endpoints overloaded now, and whether that
 * makes the application {@code OUT_OF_SERVICE}
 * ({@code overload.spring.health.fail-when-overloaded}). Each major's contributor only
 * translates it.
 */
final class OverloadHealth {

  /** One reading: {@code known} is false before the filter has started. */
  record Reading(boolean known, boolean outOfService, List<String> overloadedEndpoints) {}

  private final ServletContext context;
  private final boolean failWhenOverloaded;

  OverloadHealth(ServletContext context, ConfigurableEnvironment environment) {
    this.context = context;
    this.failWhenOverloaded =
        environment.getProperty(
            "overload.spring.health.fail-when-overloaded", Boolean.class, false);
  }

  Reading read() {
    if (!(context.getAttribute(Observability.ATTRIBUTE) instanceof Observability o)) {
      return new Reading(false, false, List.of());
    }
    List<String> overloaded = new ArrayList<>();
    for (ControlledEndpoint e : o.engine().endpoints()) {
      if (o.watch().overloaded(e.name())) {
        overloaded.add(e.name());
      }
    }
    return new Reading(true, failWhenOverloaded && !overloaded.isEmpty(), overloaded);
  }
}
