package org.overloadcontrol.internal.session;

import static org.overloadcontrol.internal.config.Key.key;

import org.overloadcontrol.internal.config.KeyTable;

/** The keys of {@link SessionSettings} ({@code sessions.}), with their defaults and meanings. */
final class SessionKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "sessions",
          "Sessions (`sessions.`)",
          key("enabled", "boolean", "`false`", "admit sessions, not single requests"),
          key(
              "cookie",
              "cookie name",
              "`oc_session`",
              "name of the signed cookie set on admission"),
          key(
              "header",
              "header name",
              "none",
              "a request header whose value names an API client's session"),
          key(
              "containerSession",
              "boolean",
              "`false`",
              "a valid container session id (`JSESSIONID`) names the session too"),
          key(
              "idleTimeout",
              "duration",
              "`10m`",
              "an admitted session without a request this long expires"),
          key(
              "maxLifetime",
              "duration",
              "`2h`",
              "any admitted session expires this long after its admission (at least"
                  + " `idleTimeout`)"),
          key(
              "maxSessions",
              "integer",
              "10000",
              "admitted sessions held at once (the table's memory bound); above it new"
                  + " sessions are refused"),
          key(
              "headroom",
              "number",
              "1.0",
              "share of the measured throughput the admitted sessions' requests may fill"),
          key(
              "maxWait",
              "number",
              "0.8",
              "share of its class's target a request of an admitted session may wait for a"
                  + " permit, at least `admission.maxWait` (a new session's bound)"),
          key(
              "window",
              "duration",
              "`1s`",
              "window over which the sessions' request rate and the throughput are measured"),
          key(
              "completionPaths",
              "path patterns",
              "none",
              "paths whose completed request ends its session"),
          key(
              "keyFile",
              "path",
              "the virtual queue's keys",
              "file with the HMAC keys of the cookie (`id:base64-key` entries, current"
                  + " first); with no keys here nor on the virtual queue a random key is"
                  + " generated with a warning"),
          key(
              "keyEnv",
              "environment variable",
              "the virtual queue's keys",
              "environment variable with the HMAC keys of the cookie"));

  private SessionKeyTable() {}
}
