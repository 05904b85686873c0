package org.overloadcontrol.internal.config;

import static org.overloadcontrol.internal.config.Key.key;
import static org.overloadcontrol.internal.config.Key.typed;

import java.time.Duration;
import org.overloadcontrol.base.RequestKind;

/**
 * The core keys ({@link ConfigParser}: classes, endpoints, targets, the global switches), the
 * rate controller's parameters ({@link ParameterLayer}) and the probe paths no adapter controls
 * ({@code bypass.}), with their defaults and meanings.
 */
final class CoreKeyTable {

  static final Key<Boolean> ENABLED =
      typed(
          "enabled",
          "boolean",
          "`true`",
          "`false` lets every request through untouched",
          Codec.BOOLEAN);
  static final Key<String> REQUEST_START_HEADER =
      typed(
          "requestStart.header",
          "header name",
          "`X-Request-Start`",
          "header in which a trusted proxy gives the time it received the request"
              + " (`t=<seconds.fraction>` or epoch ms/µs/ns); the response time then includes"
              + " the proxy's queueing",
          Codecs.TEXT);
  static final Key<Long> REQUEST_START_MAX_AGE =
      typed(
          "requestStart.maxAge",
          "duration",
          "`1m`",
          "older (or future) values are ignored as clock skew",
          Codec.POSITIVE_NANOS);
  static final Key<Long> RETRY_AFTER_MIN =
      typed(
          "retryAfter.min",
          "duration",
          "`1s`",
          "lower bound of the `Retry-After` value (the time until the class's bucket has a"
              + " token), and the value for a request refused after waiting, e.g. for a"
              + " concurrency permit",
          Codec.POSITIVE_NANOS);

  /** {@code rejectionStatus}: 0 stands for {@code auto}, which the adapter resolves. */
  static final Key<Integer> REJECTION_STATUS =
      typed(
          "rejectionStatus",
          "`auto`, `503` or `429`",
          "`auto`",
          "status of a refusal; `auto` answers 503, and 429 on Tomcat, which closes the"
              + " connection after every 503",
          Codec.oneOf(Integer.class, "auto", 0, "503", 503, "429", 429));

  static final Key<Long> RETRY_AFTER_MAX =
      typed(
          "retryAfter.max",
          "duration",
          "`60s`",
          "upper bound of the `Retry-After` value",
          Codec.POSITIVE_NANOS);
  static final Key<Integer> CLASS_RANK =
      typed(
          "classes.<c>.rank",
          "integer",
          "`0`",
          "defines class `c` (names: letters, digits," + " `_`, `-`): higher is more important",
          Codecs.WHOLE);
  static final Key<RequestKind> CLASS_KIND =
      typed(
          "classes.<c>.kind",
          "`browsing` or `transaction`",
          "`browsing`",
          "the class's kind, which picks its wait queue",
          Codecs.KIND);
  static final Key<Double> CLASS_UTILITY =
      typed(
          "classes.<c>.utility",
          "number ≥ 0",
          "`1`",
          "the class's utility, which orders the transaction queue",
          Codecs.UTILITY);
  static final Key<Duration> ENDPOINT_TARGET =
      typed(
          "endpoints.<e>.target",
          "duration or `none`",
          "none (`none` turns an annotated target off)",
          "p90 target of endpoint `e`",
          Codecs.TARGET);

  static final Key<String> TRUSTED_PROXIES =
      key(
          "trustedProxies",
          "addresses",
          "none",
          "IPs / CIDR blocks of reverse proxies whose `X-Forwarded-For` and `X-Request-Start`"
              + " are believed");
  static final Key<String> CLASS_MATCH_PATH =
      key(
          "classes.<c>.match.path",
          "path patterns",
          "",
          "rule putting requests into `c` by path (servlet-mapping syntax: `/exact`,"
              + " `/prefix/*`, `*.ext`); all conditions set must hold, any listed value of"
              + " one condition may match; rules are tried highest rank first");
  static final Key<String> CLASS_MATCH_METHOD =
      key(
          "classes.<c>.match.method",
          "methods",
          "",
          "rule putting requests into `c` by HTTP method (`GET, POST`)");
  static final Key<String> CLASS_MATCH_HEADER =
      key(
          "classes.<c>.match.header",
          "header",
          "",
          "rule putting requests into `c` by header: `Name` (present) or `Name=value`");
  static final Key<String> CLASS_MATCH_COOKIE =
      key(
          "classes.<c>.match.cookie",
          "cookie",
          "",
          "rule putting requests into `c` by cookie: `Name` (present) or `Name=value`");
  static final Key<String> CLASS_MATCH_CLIENT =
      key(
          "classes.<c>.match.client",
          "addresses",
          "",
          "rule putting requests into `c` by client: IPs / CIDR blocks");
  static final Key<String> ENDPOINT_PATHS =
      key(
          "endpoints.<e>.paths",
          "path patterns",
          "",
          "path patterns routed to endpoint `e` instead of their servlet's endpoint, matched"
              + " on the path the container resolved and on its canonical form (no trailing"
              + " slash, `;parameters`, empty or `.` segments; `..` applied)");
  static final Key<String> ENDPOINT_CLASS =
      key(
          "endpoints.<e>.class",
          "class name",
          "",
          "class of `e`'s requests when no rule matches (what `@RequestClass` sets)");

  static final KeyTable CORE =
      KeyTable.of(
          "",
          "Core keys",
          ENABLED,
          key("configFile", "path", "`/WEB-INF/overload.yaml`", "the YAML file (init-param only)"),
          TRUSTED_PROXIES,
          REQUEST_START_HEADER,
          REQUEST_START_MAX_AGE,
          key(
              "defaultClass",
              "class name",
              "`default`",
              "class of requests no rule or annotation classifies (`default`: rank 0, browsing,"
                  + " utility 1)"),
          key(
              "rejectionHandler",
              "class name",
              "built-in",
              "class name of an application `RejectionHandler` (public, no-arg constructor)"),
          REJECTION_STATUS,
          RETRY_AFTER_MIN,
          RETRY_AFTER_MAX,
          key(
              "controller.<parameter>",
              "parameter",
              "published values",
              "rate controller parameters for every endpoint and class (`controller.` keys)"),
          CLASS_RANK,
          CLASS_KIND,
          CLASS_UTILITY,
          key(
              "classes.<c>.target",
              "duration or `none`",
              "none",
              "p90 target of class `c` at endpoints that set none"),
          key(
              "classes.<c>.controller.<parameter>",
              "parameter",
              "",
              "rate controller parameters for class `c`"),
          CLASS_MATCH_PATH,
          CLASS_MATCH_METHOD,
          CLASS_MATCH_HEADER,
          CLASS_MATCH_COOKIE,
          CLASS_MATCH_CLIENT,
          ENDPOINT_TARGET,
          ENDPOINT_PATHS,
          ENDPOINT_CLASS,
          key(
              "endpoints.<e>.controller.<parameter>",
              "parameter",
              "",
              "rate controller parameters for endpoint `e`"),
          key(
              "endpoints.<e>.classes.<c>.target",
              "duration or `none`",
              "",
              "p90 target of class `c` at endpoint `e`"),
          key(
              "endpoints.<e>.classes.<c>.controller.<parameter>",
              "parameter",
              "",
              "rate controller parameters for class `c` at endpoint `e`"));

  static final KeyTable CONTROLLER =
      KeyTable.of(
          "controller",
          "Rate controller parameters (`controller.`, also under `classes.<c>.`,"
              + " `endpoints.<e>.` and `endpoints.<e>.classes.<c>.`)",
          key(
              "alpha",
              "number",
              "0.7",
              "EWMA weight of the old estimate: `cur = α·cur + (1−α)·p90(samples)`"),
          key(
              "nreq",
              "integer",
              "100",
              "samples per controller step (at most one counted step per 10 ms per class)"),
          key(
              "timeout",
              "duration",
              "1s",
              "a step also runs after this long with fewer samples (none: nothing changes);"
                  + " at most `1h`"),
          key("errD", "number", "0.0", "`err = (cur − target)/target` above this: `rate /= adjD`"),
          key("errI", "number", "−0.5", "below this: `rate += −(err − cI)·adjI`"),
          key("cI", "number", "−0.1", "error at which the increase would be zero"),
          key("adjI", "number", "2.0", "additive-increase gain"),
          key("adjD", "number", "1.2", "multiplicative-decrease divisor"),
          key(
              "adjLoD",
              "number",
              "10",
              "divisor applied to lower classes when a higher class misses its target"),
          key(
              "lcThresh",
              "integer",
              "20",
              "steps with all lower classes at `rateMin` before a class cuts itself (with"
                  + " `judgeOnFreshSamples`, the default, one)"),
          key(
              "rateMin",
              "number",
              "0.05",
              "lower bound of the admission rate, requests per second"),
          key(
              "rateMax",
              "number",
              "5000",
              "upper bound of the admission rate, requests per second"),
          key("initialRate", "number", "100", "admission rate before the first step"),
          key(
              "bucketDepth",
              "integer",
              "1",
              "tokens the bucket holds: the largest burst admitted at once"),
          key(
              "judgeOnFreshSamples",
              "boolean",
              "`true`",
              "not in the paper: after a cut, judge the next steps only on requests that"
                  + " arrived after it (with the mends that go with it); `false` is the paper's"
                  + " controller exactly"),
          key(
              "proportionalIncrease",
              "boolean",
              "`false`",
              "not in the paper: raise by `rate·(1 + 0.1·step)` instead of `rate + step`"
                  + " (`step = −(err − cI)·adjI`)"));

  static final KeyTable BYPASS =
      KeyTable.of(
          "bypass",
          "Probe paths (`bypass.`)",
          key(
              "paths",
              "path patterns or `none`",
              "`/health/*`, `/healthz`, `/livez`, `/readyz`, `/ready`, `/metrics`,"
                  + " `/actuator/health/*`, `/actuator/prometheus`, `/actuator/metrics/*`",
              "probe paths (servlet-mapping syntax, `none` for none) passed to the application"
                  + " untouched: never queued, counted or refused, so a load balancer's health"
                  + " check does not take a busy server out of rotation"));

  private CoreKeyTable() {}
}
