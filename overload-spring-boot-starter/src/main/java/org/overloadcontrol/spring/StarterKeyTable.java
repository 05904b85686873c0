package org.overloadcontrol.spring;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.internal.config.KeyTable;

/**
 * The starter's own Spring properties ({@code overload.spring.}), which configure the starter
 * rather than the filter, with their defaults and meanings: read by the auto-configurations and
 * listed in the configuration metadata. Spring reads them when the application starts.
 */
final class StarterKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "overload.spring",
          "Spring Boot starter (`overload.spring.`)",
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
}
