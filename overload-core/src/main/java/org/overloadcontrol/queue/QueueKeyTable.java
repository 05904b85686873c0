package org.overloadcontrol.queue;

import static org.overloadcontrol.config.Key.key;

import org.overloadcontrol.config.KeyTable;

/** The keys of {@link QueueSettings} ({@code queue.}), with their defaults and meanings. */
final class QueueKeyTable {

  static final KeyTable TABLE =
      KeyTable.of(
          "queue",
          "Wait queues (`queue.`)",
          key(
              "permits",
              "integer",
              "none: no queueing",
              "requests executing at once, over all endpoints"),
          key(
              "layout",
              "`per-class` or `single`",
              "`per-class`",
              "`per-class` (LIFO-Pri's eight queues) or `single` (one shared queue, the"
                  + " paper's SQ)"),
          key(
              "order",
              "`lifo-at-overload`, `fifo` or `lifo`",
              "`lifo-at-overload`",
              "browsing (or single-queue) order"),
          key(
              "browsingCapacity",
              "integer",
              "50",
              "bound of each browsing queue (the paper's); a full queue refuses with 503"),
          key(
              "transactionCapacity",
              "integer",
              "25",
              "bound of each transaction queue (the paper's); a full queue refuses with 503"),
          key(
              "singleCapacity",
              "integer",
              "100",
              "bound of the single queue (the paper's); a full queue refuses with 503"),
          key("classes.<c>.capacity", "integer", "", "queue bound of class `c`"),
          key("classes.<c>.maxWait", "duration", "", "longest wait of class `c` before 503"),
          key("maxWait", "duration", "`10s`", "longest wait before 503"),
          key(
              "overload.signal",
              "`queue-delay` or `cpu`",
              "`queue-delay`",
              "what switches FIFO↔LIFO: `queue-delay` (while FIFO, the smallest wait of any"
                  + " request that left a queue in the window, or the share of the window during"
                  + " which some request waited; while LIFO, the longest wait seen in the"
                  + " window) or `cpu` (process CPU utilisation)"),
          key("overload.window", "duration", "`1s`", "the signal's window"),
          key("overload.enterDelay", "duration", "`200ms`", "LIFO above this wait"),
          key("overload.exitDelay", "duration", "`50ms`", "FIFO below this wait (hysteresis)"),
          key(
              "overload.enterShare",
              "number",
              "0.5",
              "LIFO also when some request waited for this share of the window; FIFO needs the"
                  + " share below it too"),
          key(
              "overload.dwell",
              "integer",
              "3",
              "windows in a row below the lower threshold before LIFO returns to FIFO"),
          key("overload.cpuUpper", "number", "0.99", "the paper's upper threshold for `cpu`"),
          key("overload.cpuLower", "number", "0.95", "the paper's lower threshold for `cpu`"),
          key(
              "nonAsync",
              "`block` or `reject`",
              "`block`",
              "a chain without async support: `block` (wait on the thread, bounded by"
                  + " `maxWait`) or `reject` (503 at once)"),
          key(
              "endpoints.<e>.permits",
              "integer",
              "unlimited",
              "requests of endpoint `e` executing at once"),
          key(
              "endpoints.<e>.adaptive",
              "boolean",
              "`false`",
              "SEDA's thread-pool controller on the endpoint's permits (§3.4)"),
          key(
              "endpoints.<e>.queueThreshold",
              "integer",
              "10",
              "adaptive permits: one added when more than this many wait at a sample"),
          key(
              "endpoints.<e>.samplePeriod",
              "duration",
              "`2s`",
              "adaptive permits: how often the waiting requests are counted"),
          key("endpoints.<e>.minPermits", "integer", "1", "adaptive permits: the fewest"),
          key("endpoints.<e>.maxPermits", "integer", "20", "adaptive permits: the most"),
          key(
              "endpoints.<e>.idleTime",
              "duration",
              "`5s`",
              "adaptive permits: one removed after this long unused"),
          key(
              "endpoints.<e>.admission",
              "`rate` or `queue-threshold`",
              "`rate`",
              "`queue-threshold` replaces the token bucket (and the concurrency limit) by"
                  + " Haboob's controller (SEDA §5.1.4): refuse when `e` holds `threshold`"
                  + " requests (`admission.controller: queue-threshold` chooses it for a group)"),
          key(
              "endpoints.<e>.threshold.initial",
              "integer",
              "20",
              "queue-threshold: the threshold it starts at"),
          key(
              "endpoints.<e>.threshold.step",
              "integer",
              "1",
              "queue-threshold: added each period the mean response time met the target"),
          key(
              "endpoints.<e>.threshold.divisor",
              "number",
              "2",
              "queue-threshold: divides the threshold each period the mean response time"
                  + " exceeded the target"),
          key(
              "endpoints.<e>.threshold.period",
              "duration",
              "`1s`",
              "queue-threshold: how often the threshold is adjusted"));

  private QueueKeyTable() {}
}
