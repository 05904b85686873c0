package org.overloadcontrol.spring;

import java.util.List;
import org.overloadcontrol.internal.pipeline.KeyDescription;

/**
 * The starter's own Spring properties ({@code overload.spring.}), which configure the starter
 * rather than the filter, with their defaults and meanings: read by the auto-configurations and
 * listed in the configuration metadata. Spring reads them when the application starts.
 */
final class StarterKeyTable {

  private static final String PREFIX = "overload.spring.";

  static final List<KeyDescription> KEYS =
      List.of(
          key(
              "enabled",
              "boolean",
              "`true`",
              "`false` leaves the starter out: no filter, endpoint, servlet or binding"),
          key("health.enabled", "boolean", "`true`", "the `overload` health contributor"),
          key(
              "health.fail-when-shedding",
              "boolean",
              "`false`",
              "the contributor reports `OUT_OF_SERVICE` while any endpoint is `shedding`"),
          key(
              "health.fail-when-overloaded",
              "boolean",
              "`false`",
              "deprecated: the former name of `fail-when-shedding`, read when that is not set"),
          key(
              "status.enabled",
              "boolean",
              "`true`",
              "the status servlet: the dashboard, the status JSON and the Prometheus text"),
          key(
              "status.path",
              "path",
              "`/overload`",
              "where the status servlet is mapped (`<path>/*`), e.g. `/actuator/overload-ui`"
                  + " to keep it below the actuator's base path"),
          key(
              "metrics.enabled",
              "boolean",
              "`true`",
              "bind the metrics to the application's `MeterRegistry`"));

  private StarterKeyTable() {}

  private static KeyDescription key(String name, String type, String defaultValue, String meaning) {
    return KeyDescription.of(PREFIX + name, type, defaultValue, meaning);
  }
}
