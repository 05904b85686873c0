package org.overloadcontrol.internal.config;

import static org.overloadcontrol.internal.config.Key.key;

/** The keys of {@link AdmissionSettings} ({@code admission.}), with their defaults and meanings. */
final class AdmissionKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "admission",
          "Admission (`admission.`)",
          key(
              "controller",
              "`concurrency`, `rate`, `queue-threshold` or a registered algorithm's name",
              "`concurrency`",
              "the admission controller of the endpoints no group names (they form the group"
                  + " `default`); `concurrency` and `queue-threshold` act where a class has a"
                  + " target, the other endpoints keep `rate`"),
          key(
              "groups.<g>.endpoints",
              "endpoint names",
              "",
              "endpoints sharing one limit (one resource); an endpoint may be in one group"),
          key(
              "groups.<g>.controller",
              "`concurrency`, `rate`, `queue-threshold` or a registered algorithm's name",
              "as below",
              "the group's admission controller"),
          key("groups.<g>.maxLimit", "integer", "as below", "the group's highest limit"),
          key(
              "groups.<g>.initialLimit",
              "integer",
              "as below",
              "the group's limit before its first window"),
          key(
              "maxLimit",
              "integer",
              "2 % under the container's request threads, at least 2 (196 of 200), else 200",
              "the highest concurrency limit; kept under the threads so that requests"
                  + " over the limit wait in the wait queues, where their wait is measured and"
                  + " bounded, instead of in the container's own queue before the filter; on"
                  + " virtual threads 200 unless set"),
          key(
              "initialLimit",
              "integer",
              "`maxLimit`",
              "the limit before the first window (at the maximum, a healthy endpoint is never"
                  + " held back while the limit learns)"),
          key(
              "idleHeadroom",
              "`off` or number ≥ 1",
              "`off`",
              "or a number h ≥ 1, e.g. 2: a window that meets the target without reaching the"
                  + " limit brings the limit down (by at most 0.8) toward h × its largest"
                  + " in-flight count, so a crowd that lands at once meets a limit near the load"
                  + " before it"),
          key(
              "window",
              "duration",
              "`100ms`",
              "a window closes after this long (with at least 20 samples, or after ten"
                  + " windows)"),
          key("windowSamples", "integer", "100", "a window closes after this many samples"),
          key("setpoint", "number", "0.9", "the p90 aimed at, as a fraction of the target"),
          key(
              "maxWait",
              "number",
              "0.7",
              "longest wait for a permit of the limit, as a fraction of the request's target"
                  + " (and never longer than `queue.maxWait`); shorter when the request's class"
                  + " executes in more than the rest of its target, down to a quarter of it"));

  private AdmissionKeyTable() {}
}
