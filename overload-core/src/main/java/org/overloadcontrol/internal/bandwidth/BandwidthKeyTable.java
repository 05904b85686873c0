package org.overloadcontrol.internal.bandwidth;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.internal.config.KeyTable;

/** The keys of {@link BandwidthSettings} ({@code bandwidth.}), with their defaults and meanings. */
final class BandwidthKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "bandwidth",
          "Bandwidth shares (`bandwidth.`)",
          key(
              "total",
              "rate",
              "required",
              "B, the total bandwidth to share out (`100Mbit/s`, `12MB/s`); set it below what the"
                  + " server can really send"),
          key(
              "groups.<g>.share",
              "share",
              "required",
              "the group's share of B, `0%` to `100%`; `0%` refuses the group with 403; the"
                  + " shares may not add up to more than 100 %"),
          key(
              "groups.<g>.match.client",
              "addresses",
              "—",
              "IP addresses and CIDR blocks, comma-separated, IPv4 and IPv6"),
          key(
              "groups.<g>.match.header",
              "header",
              "—",
              "`Name` (the header is present) or `Name=value` (equal)"),
          key("groups.<g>.match.cookie", "cookie", "—", "`name` or `name=value`, the same way"),
          key(
              "defaultGroup",
              "group name",
              "none",
              "the group of requests that match no rule; without it, unmatched requests are not"
                  + " shaped or measured"),
          key(
              "alpha",
              "number in (0, 1]",
              "`0.2`",
              "α of the moving average of measured bandwidth"),
          key(
              "idleAlpha",
              "number in (0, 1]",
              "`0.3`",
              "each manager period, a group that had no request and no completion has zero"
                  + " averaged into its bandwidth with this weight"),
          key(
              "managerPeriod",
              "duration",
              "`500ms`",
              "how often the manager task runs (10 ms to 60 s)"),
          key(
              "measure",
              "`throughput` or `perRequest`",
              "`throughput`",
              "what a group's measured bandwidth averages"),
          key(
              "standbyLimit",
              "integer",
              "`4`",
              "how many delayed requests a group may have at once; the next one gets 429"),
          key(
              "maxDelay",
              "duration",
              "`10s`",
              "a request that would wait longer than this gets 429 instead"),
          key(
              "cacheExpiry",
              "duration",
              "`10m`",
              "a group's measurements are dropped this long after its last request (at least"
                  + " twice `managerPeriod`)"),
          key(
              "enabled",
              "boolean",
              "`true`",
              "switches shaping off while keeping the configuration"),
          key(
              "paths",
              "path patterns",
              "every path",
              "path patterns (`/images/*`, `*.jpg`, `/download`) whose requests are shaped;"
                  + " others pass unshaped and unmeasured"));

  private BandwidthKeyTable() {}
}
