package org.overloadcontrol.internal.virtualqueue;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.internal.config.KeyTable;

/**
 * The keys of {@link VirtualQueueSettings} ({@code virtualQueue.}), with their defaults and
 * meanings.
 */
final class VirtualQueueKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "virtualQueue",
          "Virtual queue (`virtualQueue.`)",
          key("enabled", "boolean", "`false`", "switch"),
          key(
              "paths",
              "path patterns",
              "required when enabled",
              "comma-separated path patterns (`/checkout`, `/api/*`, `*.do`) the queue protects;"
                  + " every form of a path the container hands the same servlet is protected"
                  + " too"),
          key(
              "capacity",
              "number or `auto`",
              "`auto`",
              "subunits per second the server handles (requests/s if every hardness is 1), or"
                  + " `auto` to estimate it (needs `commons-math3`)"),
          key(
              "maxWait",
              "duration",
              "`5m`",
              "the longest wait handed out (1s to 1h); when every slot up to it is full the"
                  + " request gets 503"),
          key(
              "grace",
              "duration",
              "`10s`",
              "how long after its slot a token still admits (1s to" + " 10m)"),
          key(
              "keyFile",
              "path",
              "—",
              "file with the HMAC keys: a file on disk, or a path under `/WEB-INF/` that the"
                  + " web application holds"),
          key(
              "keyEnv",
              "environment variable",
              "—",
              "name of an environment variable with the keys (give `keyFile` or `keyEnv`, not"
                  + " both)"),
          key(
              "types.NAME",
              "path patterns",
              "—",
              "path patterns of request type NAME; the first match wins; unmatched requests are"
                  + " type `default`"),
          key(
              "hardness.NAME",
              "number",
              "`1`",
              "subunits one request of NAME costs; only with a numeric `capacity`"),
          key("epoch", "duration", "`10s`", "sampling epoch of the capacity estimate"),
          key(
              "trainingEpochs",
              "integer",
              "`84`",
              "epochs collected before estimating (84 × 10 s = 14 min, the paper's figure)"),
          key(
              "replayCacheSize",
              "integer",
              "`100000`",
              "used tokens remembered to refuse a second use; keep it above capacity × grace"),
          key(
              "repostMaxBytes",
              "integer",
              "`65536`",
              "the largest url-encoded form body the waiting page keeps and re-posts"));

  private VirtualQueueKeyTable() {}
}
