package org.overloadcontrol.internal.queue;

import static org.overloadcontrol.internal.config.Key.typed;

import org.overloadcontrol.internal.config.Codec;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;

/** The keys of {@link QueueSettings} ({@code queue.}), with their defaults and meanings. */
final class QueueKeyTable {

  private static final Codec<QueueSettings.Layout> LAYOUT_CODEC =
      Codec.oneOf(
          QueueSettings.Layout.class,
          "per-class",
          QueueSettings.Layout.PER_CLASS,
          "single",
          QueueSettings.Layout.SINGLE);
  private static final Codec<QueueOrder> ORDER_CODEC =
      Codec.oneOf(
          QueueOrder.class,
          "lifo-at-overload",
          QueueOrder.LIFO_AT_OVERLOAD,
          "fifo",
          QueueOrder.FIFO,
          "lifo",
          QueueOrder.LIFO);
  private static final Codec<QueueSettings.Signal> SIGNAL_CODEC =
      Codec.oneOf(
          QueueSettings.Signal.class,
          "queue-delay",
          QueueSettings.Signal.QUEUE_DELAY,
          "cpu",
          QueueSettings.Signal.CPU);
  private static final Codec<QueueSettings.NonAsync> NON_ASYNC_CODEC =
      Codec.oneOf(
          QueueSettings.NonAsync.class,
          "block",
          QueueSettings.NonAsync.BLOCK,
          "reject",
          QueueSettings.NonAsync.REJECT);
  private static final Codec<QueueSettings.AdmissionPolicy> ADMISSION_CODEC =
      Codec.oneOf(
          QueueSettings.AdmissionPolicy.class,
          "rate",
          QueueSettings.AdmissionPolicy.RATE,
          "queue-threshold",
          QueueSettings.AdmissionPolicy.QUEUE_THRESHOLD);

  /** Halving and more: a divisor of 1 or less would never lower the threshold. */
  private static final Codec<Double> DIVISOR_CODEC =
      Codec.of(
          v -> {
            double d;
            try {
              d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("must be a number > 1");
            }
            if (!(d > 1)) {
              throw new IllegalArgumentException("must be a number > 1");
            }
            return d;
          },
          String::valueOf);

  static final Key<Integer> PERMITS =
      typed(
          "permits",
          "integer",
          "none: no queueing",
          "requests executing at once, over all endpoints",
          Codec.POSITIVE_INT,
          0);

  static final Key<QueueSettings.Layout> LAYOUT =
      typed(
          "layout",
          "`per-class` or `single`",
          "`per-class`",
          "`per-class` (LIFO-Pri's eight queues) or `single` (one shared queue, the"
              + " paper's SQ)",
          LAYOUT_CODEC);

  static final Key<QueueOrder> ORDER =
      typed(
          "order",
          "`lifo-at-overload`, `fifo` or `lifo`",
          "`lifo-at-overload`",
          "browsing (or single-queue) order",
          ORDER_CODEC);

  static final Key<Integer> BROWSING_CAPACITY =
      typed(
          "browsingCapacity",
          "integer",
          "50",
          "bound of each browsing queue (the paper's); a full queue refuses with 503",
          Codec.POSITIVE_INT);

  static final Key<Integer> TRANSACTION_CAPACITY =
      typed(
          "transactionCapacity",
          "integer",
          "25",
          "bound of each transaction queue (the paper's); a full queue refuses with 503",
          Codec.POSITIVE_INT);

  static final Key<Integer> SINGLE_CAPACITY =
      typed(
          "singleCapacity",
          "integer",
          "100",
          "bound of the single queue (the paper's); a full queue refuses with 503",
          Codec.POSITIVE_INT);

  static final Key<Integer> CLASS_CAPACITY =
      typed("classes.<c>.capacity", "integer", "", "queue bound of class `c`", Codec.POSITIVE_INT);

  static final Key<Long> CLASS_MAX_WAIT =
      typed(
          "classes.<c>.maxWait",
          "duration",
          "",
          "longest wait of class `c` before 503",
          Codec.POSITIVE_NANOS);

  static final Key<Long> MAX_WAIT =
      typed("maxWait", "duration", "`10s`", "longest wait before 503", Codec.POSITIVE_NANOS);

  static final Key<QueueSettings.Signal> OVERLOAD_SIGNAL =
      typed(
          "overload.signal",
          "`queue-delay` or `cpu`",
          "`queue-delay`",
          "what switches FIFO↔LIFO: `queue-delay` (while FIFO, the smallest wait of any"
              + " request that left a queue in the window, or the share of the window during"
              + " which some request waited; while LIFO, the longest wait seen in the"
              + " window) or `cpu` (process CPU utilisation)",
          SIGNAL_CODEC);

  static final Key<Long> OVERLOAD_WINDOW =
      typed("overload.window", "duration", "`1s`", "the signal's window", Codec.POSITIVE_NANOS);

  static final Key<Long> OVERLOAD_ENTER_DELAY =
      typed(
          "overload.enterDelay",
          "duration",
          "`200ms`",
          "LIFO above this wait",
          Codec.POSITIVE_NANOS);

  static final Key<Long> OVERLOAD_EXIT_DELAY =
      typed(
          "overload.exitDelay",
          "duration",
          "`50ms`",
          "FIFO below this wait (hysteresis)",
          Codec.POSITIVE_NANOS);

  static final Key<Double> OVERLOAD_ENTER_SHARE =
      typed(
          "overload.enterShare",
          "number",
          "0.5",
          "LIFO also when some request waited for this share of the window; FIFO needs the"
              + " share below it too",
          Codec.FRACTION);

  static final Key<Integer> OVERLOAD_DWELL =
      typed(
          "overload.dwell",
          "integer",
          "3",
          "windows in a row below the lower threshold before LIFO returns to FIFO",
          Codec.POSITIVE_INT);

  static final Key<Double> OVERLOAD_CPU_UPPER =
      typed(
          "overload.cpuUpper",
          "number",
          "0.99",
          "the paper's upper threshold for `cpu`",
          Codec.FRACTION);

  static final Key<Double> OVERLOAD_CPU_LOWER =
      typed(
          "overload.cpuLower",
          "number",
          "0.95",
          "the paper's lower threshold for `cpu`",
          Codec.FRACTION);

  static final Key<QueueSettings.NonAsync> NON_ASYNC =
      typed(
          "nonAsync",
          "`block` or `reject`",
          "`block`",
          "a chain without async support: `block` (wait on the thread, bounded by"
              + " `maxWait`) or `reject` (503 at once)",
          NON_ASYNC_CODEC);

  static final Key<Integer> ENDPOINT_PERMITS =
      typed(
          "endpoints.<e>.permits",
          "integer",
          "unlimited",
          "requests of endpoint `e` executing at once",
          Codec.POSITIVE_INT,
          0);

  static final Key<Boolean> ENDPOINT_ADAPTIVE =
      typed(
          "endpoints.<e>.adaptive",
          "boolean",
          "`false`",
          "SEDA's thread-pool controller on the endpoint's permits (§3.4)",
          Codec.BOOLEAN);

  static final Key<Integer> ENDPOINT_QUEUE_THRESHOLD =
      typed(
          "endpoints.<e>.queueThreshold",
          "integer",
          "10",
          "adaptive permits: one added when more than this many wait at a sample",
          Codec.POSITIVE_INT);

  static final Key<Long> ENDPOINT_SAMPLE_PERIOD =
      typed(
          "endpoints.<e>.samplePeriod",
          "duration",
          "`2s`",
          "adaptive permits: how often the waiting requests are counted",
          Codec.POSITIVE_NANOS);

  static final Key<Integer> ENDPOINT_MIN_PERMITS =
      typed(
          "endpoints.<e>.minPermits",
          "integer",
          "1",
          "adaptive permits: the fewest",
          Codec.POSITIVE_INT);

  static final Key<Integer> ENDPOINT_MAX_PERMITS =
      typed(
          "endpoints.<e>.maxPermits",
          "integer",
          "20",
          "adaptive permits: the most",
          Codec.POSITIVE_INT);

  static final Key<Long> ENDPOINT_IDLE_TIME =
      typed(
          "endpoints.<e>.idleTime",
          "duration",
          "`5s`",
          "adaptive permits: one removed after this long unused",
          Codec.POSITIVE_NANOS);

  static final Key<QueueSettings.AdmissionPolicy> ENDPOINT_ADMISSION =
      typed(
          "endpoints.<e>.admission",
          "`rate` or `queue-threshold`",
          "`rate`",
          "`queue-threshold` replaces the token bucket (and the concurrency limit) by"
              + " Haboob's controller (SEDA §5.1.4): refuse when `e` holds `threshold`"
              + " requests (`admission.controller: queue-threshold` chooses it for a group)",
          ADMISSION_CODEC);

  static final Key<Integer> ENDPOINT_THRESHOLD_INITIAL =
      typed(
          "endpoints.<e>.threshold.initial",
          "integer",
          "20",
          "queue-threshold: the threshold it starts at",
          Codec.POSITIVE_INT);

  static final Key<Integer> ENDPOINT_THRESHOLD_STEP =
      typed(
          "endpoints.<e>.threshold.step",
          "integer",
          "1",
          "queue-threshold: added each period the mean response time met the target",
          Codec.POSITIVE_INT);

  static final Key<Double> ENDPOINT_THRESHOLD_DIVISOR =
      typed(
          "endpoints.<e>.threshold.divisor",
          "number",
          "2",
          "queue-threshold: divides the threshold each period the mean response time"
              + " exceeded the target",
          DIVISOR_CODEC);

  static final Key<Long> ENDPOINT_THRESHOLD_PERIOD =
      typed(
          "endpoints.<e>.threshold.period",
          "duration",
          "`1s`",
          "queue-threshold: how often the threshold is adjusted",
          Codec.POSITIVE_NANOS);

  static final KeyTable TABLE =
      KeyTable.of(
          "queue",
          "Wait queues (`queue.`)",
          PERMITS,
          LAYOUT,
          ORDER,
          BROWSING_CAPACITY,
          TRANSACTION_CAPACITY,
          SINGLE_CAPACITY,
          CLASS_CAPACITY,
          CLASS_MAX_WAIT,
          MAX_WAIT,
          OVERLOAD_SIGNAL,
          OVERLOAD_WINDOW,
          OVERLOAD_ENTER_DELAY,
          OVERLOAD_EXIT_DELAY,
          OVERLOAD_ENTER_SHARE,
          OVERLOAD_DWELL,
          OVERLOAD_CPU_UPPER,
          OVERLOAD_CPU_LOWER,
          NON_ASYNC,
          ENDPOINT_PERMITS,
          ENDPOINT_ADAPTIVE,
          ENDPOINT_QUEUE_THRESHOLD,
          ENDPOINT_SAMPLE_PERIOD,
          ENDPOINT_MIN_PERMITS,
          ENDPOINT_MAX_PERMITS,
          ENDPOINT_IDLE_TIME,
          ENDPOINT_ADMISSION,
          ENDPOINT_THRESHOLD_INITIAL,
          ENDPOINT_THRESHOLD_STEP,
          ENDPOINT_THRESHOLD_DIVISOR,
          ENDPOINT_THRESHOLD_PERIOD);

  private QueueKeyTable() {}
}
