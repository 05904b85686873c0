package org.overloadcontrol.internal.metrics;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.metrics.MetricsSettings;

/**
 * The keys of {@link MetricsSettings} ({@code metrics.}) and {@link StatusAccess}
 * ({@code status.}), with their defaults and meanings.
 */
final class MetricsKeyTable {

  public static final KeyTable METRICS =
      KeyTable.of(
          "metrics",
          "Metrics (`metrics.`)",
          key("enabled", "boolean", "`true`", "record the metrics, run the overload watch"),
          key(
              "binding",
              "names or `none`",
              "every binding on the class path",
              "the metrics libraries to report to: `dropwizard`, `micrometer`, `prometheus`"
                  + " (comma-separated), or `none`"),
          key(
              "jmx",
              "boolean",
              "`true` with the Dropwizard binding's own registry, `false` with the"
                  + " application's",
              "start a JMX reporter (Dropwizard module)"),
          key("jmxDomain", "text", "`org.overloadcontrol[.<context path>]`", "JMX domain"),
          key(
              "period",
              "duration",
              "`1s`",
              "how often new endpoints/classes are registered and overload is judged"),
          key(
              "overloadQuietPeriod",
              "duration",
              "`5s`",
              "how long an endpoint must go without shedding while it misses its target to leave"
                  + " overload (and without shedding at all to stop `shedding`)"));

  static final KeyTable STATUS =
      KeyTable.of(
          "status",
          "Status page access (`status.`)",
          key(
              "allow",
              "addresses",
              "(none)",
              "IP literals and CIDR blocks (comma or space separated) allowed besides loopback"),
          key(
              "role",
              "role name",
              "(none)",
              "a role (`request.isUserInRole`) that grants access from anywhere"));

  private MetricsKeyTable() {}
}
