package org.overloadcontrol.internal.queue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.config.Key;
import org.overloadcontrol.internal.config.KeyTable;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * The wait-queue configuration (keys under {@code queue.}), immutable and validated when the
 * filter starts. Queueing is off unless {@code queue.permits} or a per-endpoint permit limit is
 * set: a limit on concurrent execution changes how an application behaves, so we never pick one
 * silently.
 */
public final class QueueSettings {

  /** Layout of the wait queues. */
  public enum Layout {
    /** One queue per request class, served by LIFO-Pri priority (the paper's 8Q). */
    PER_CLASS,
    /** One shared queue for every class (the paper's SQ). */
    SINGLE
  }

  /** What drives the FIFO↔LIFO switch of browsing queues. */
  public enum Signal {
    /** Sustained minimum queueing delay over a window (default: containers are rarely CPU-bound). */
    QUEUE_DELAY,
    /** Process CPU utilisation over a window (the paper's 0.99 / 0.95). */
    CPU
  }

  /** What a request does when its chain cannot suspend (no async support). */
  public enum NonAsync {
    /** Wait on the container thread, bounded by the class's max wait. */
    BLOCK,
    /** Refuse at once with 503. */
    REJECT
  }

  /** Admission policy of an endpoint. */
  public enum AdmissionPolicy {
    /** The response-time controlled token bucket (Welsh &amp; Culler 2003). */
    RATE,
    /** Haboob's queue-threshold controller (Welsh et al. 2001, §5.1.4). */
    QUEUE_THRESHOLD
  }

  /** Per-endpoint settings. */
  public record EndpointQueueSettings(
      int permits,
      int minPermits,
      int maxPermits,
      boolean adaptive,
      int queueThreshold,
      long samplePeriodNanos,
      long idleNanos,
      AdmissionPolicy admission,
      int thresholdInitial,
      int thresholdStep,
      double thresholdDivisor,
      long thresholdPeriodNanos) {}

  /** {@code queue.permits}: requests executing at once over all endpoints, 0 for no limit. */
  public static final Key<Integer> PERMITS = QueueKeyTable.PERMITS;

  /** The keys this section accepts: its table in the reference. */
  public static KeyTable keyTable() {
    return KEYS;
  }

  private static final KeyTable KEYS = QueueKeyTable.TABLE;
  private static final Pattern CLASS_KEY = KEYS.keysUnder("classes.<c>.");
  private static final Pattern ENDPOINT_KEY = KEYS.keysUnder("endpoints.<e>.");

  private final int permits;
  private final Layout layout;
  private final QueueOrder order;
  private final int singleCapacity;
  private final int browsingCapacity;
  private final int transactionCapacity;
  private final long maxWaitNanos;
  private final NonAsync nonAsync;
  private final Signal signal;
  private final long windowNanos;
  private final long enterDelayNanos;
  private final long exitDelayNanos;
  private final double cpuUpper;
  private final double cpuLower;
  private final double enterShare;
  private final int dwell;
  private final Map<String, Integer> classCapacity;
  private final Map<String, Long> classMaxWait;
  private final Map<String, EndpointQueueSettings> endpoints;

  /** The settings of an endpoint no key names: every default. */
  private final EndpointQueueSettings unconfigured;

  private QueueSettings(ConfigSection s, OverloadConfig config) {
    s.requireOnly(KEYS);
    permits = s.value(QueueKeyTable.PERMITS);
    layout = s.value(QueueKeyTable.LAYOUT);
    order = s.value(QueueKeyTable.ORDER);
    singleCapacity = s.value(QueueKeyTable.SINGLE_CAPACITY);
    browsingCapacity = s.value(QueueKeyTable.BROWSING_CAPACITY);
    transactionCapacity = s.value(QueueKeyTable.TRANSACTION_CAPACITY);
    maxWaitNanos = s.value(QueueKeyTable.MAX_WAIT);
    nonAsync = s.value(QueueKeyTable.NON_ASYNC);
    signal = s.value(QueueKeyTable.OVERLOAD_SIGNAL);
    windowNanos = s.value(QueueKeyTable.OVERLOAD_WINDOW);
    enterDelayNanos = s.value(QueueKeyTable.OVERLOAD_ENTER_DELAY);
    exitDelayNanos = s.value(QueueKeyTable.OVERLOAD_EXIT_DELAY);
    if (exitDelayNanos > enterDelayNanos) {
      throw s.conflict(
          "queue.overload.exitDelay ("
              + Duration.ofNanos(exitDelayNanos)
              + ") must not exceed queue.overload.enterDelay ("
              + Duration.ofNanos(enterDelayNanos)
              + "): the switch needs hysteresis",
          "overload.exitDelay",
          "overload.enterDelay");
    }
    cpuUpper = s.value(QueueKeyTable.OVERLOAD_CPU_UPPER);
    cpuLower = s.value(QueueKeyTable.OVERLOAD_CPU_LOWER);
    if (cpuLower > cpuUpper) {
      throw s.conflict(
          "queue.overload.cpuLower ("
              + cpuLower
              + ") must not exceed queue.overload.cpuUpper ("
              + cpuUpper
              + ")",
          "overload.cpuLower",
          "overload.cpuUpper");
    }
    enterShare = s.value(QueueKeyTable.OVERLOAD_ENTER_SHARE);
    dwell = s.value(QueueKeyTable.OVERLOAD_DWELL);
    classCapacity = new HashMap<>();
    classMaxWait = new HashMap<>();
    Map<String, Map<String, String>> endpointKeys = new HashMap<>();
    for (String key : s.keys()) {
      Matcher m = CLASS_KEY.matcher(key);
      if (m.matches()) {
        if (config.requestClass(m.group(1)).isEmpty()) {
          throw s.error(
              key,
              "unknown request class '"
                  + m.group(1)
                  + "'; defined classes: "
                  + new java.util.TreeSet<>(config.classes().keySet()));
        }
        if (m.group(2).equals("capacity")) {
          classCapacity.put(m.group(1), s.value(QueueKeyTable.CLASS_CAPACITY, key));
        } else {
          classMaxWait.put(m.group(1), s.value(QueueKeyTable.CLASS_MAX_WAIT, key));
        }
        continue;
      }
      m = ENDPOINT_KEY.matcher(key);
      if (m.matches()) {
        endpointKeys.computeIfAbsent(m.group(1), k -> new HashMap<>()).put(m.group(2), key);
      }
    }
    endpoints = new HashMap<>();
    endpointKeys.forEach((name, keys) -> endpoints.put(name, endpoint(s, keys)));
    unconfigured = endpoint(s, Map.of());
  }

  private static EndpointQueueSettings endpoint(ConfigSection s, Map<String, String> keys) {
    int permits = s.value(QueueKeyTable.ENDPOINT_PERMITS, relative(keys, "permits"));
    boolean adaptive = s.value(QueueKeyTable.ENDPOINT_ADAPTIVE, relative(keys, "adaptive"));
    // Without the adaptive controller the permits are the ceiling; maxPermits' default is the
    // adaptive controller's.
    int max =
        adaptive || keys.containsKey("maxPermits")
            ? s.value(QueueKeyTable.ENDPOINT_MAX_PERMITS, relative(keys, "maxPermits"))
            : permits;
    int min = s.value(QueueKeyTable.ENDPOINT_MIN_PERMITS, relative(keys, "minPermits"));
    if (adaptive && permits == 0) {
      permits = min;
    }
    if (adaptive && (min > max || permits < min || permits > max)) {
      String blamed =
          min > max
              ? keys.getOrDefault("minPermits", keys.getOrDefault("maxPermits", "-"))
              : keys.getOrDefault(
                  "permits", keys.getOrDefault(permits < min ? "minPermits" : "maxPermits", "-"));
      throw s.error(
          s.get(blamed) != null ? blamed : keys.get("adaptive"),
          "adaptive permits need minPermits <= permits <= maxPermits (here "
              + min
              + ", "
              + permits
              + ", "
              + max
              + ")");
    }
    return new EndpointQueueSettings(
        permits,
        min,
        max,
        adaptive,
        s.value(QueueKeyTable.ENDPOINT_QUEUE_THRESHOLD, relative(keys, "queueThreshold")),
        s.value(QueueKeyTable.ENDPOINT_SAMPLE_PERIOD, relative(keys, "samplePeriod")),
        s.value(QueueKeyTable.ENDPOINT_IDLE_TIME, relative(keys, "idleTime")),
        s.value(QueueKeyTable.ENDPOINT_ADMISSION, relative(keys, "admission")),
        s.value(QueueKeyTable.ENDPOINT_THRESHOLD_INITIAL, relative(keys, "threshold.initial")),
        s.value(QueueKeyTable.ENDPOINT_THRESHOLD_STEP, relative(keys, "threshold.step")),
        s.value(QueueKeyTable.ENDPOINT_THRESHOLD_DIVISOR, relative(keys, "threshold.divisor")),
        s.value(QueueKeyTable.ENDPOINT_THRESHOLD_PERIOD, relative(keys, "threshold.period")));
  }

  /** The key an endpoint's setting was written under, or a name no key has when it is unset. */
  private static String relative(Map<String, String> keys, String setting) {
    return keys.getOrDefault(setting, "-");
  }

  /** Parses the {@code queue.} section of {@code config}. */
  public static QueueSettings from(OverloadConfig config) {
    return new QueueSettings(config.section("queue"), config);
  }

  /** Whether any limit on execution is configured, so that requests may wait. */
  public boolean enabled() {
    return permits > 0
        || endpoints.values().stream()
            .anyMatch(e -> e.permits() > 0 || e.admission() == AdmissionPolicy.QUEUE_THRESHOLD);
  }

  /** Overall execution permits; 0 means no overall limit. */
  public int permits() {
    return permits;
  }

  public Layout layout() {
    return layout;
  }

  public QueueOrder order() {
    return order;
  }

  public NonAsync nonAsync() {
    return nonAsync;
  }

  public Signal signal() {
    return signal;
  }

  public long windowNanos() {
    return windowNanos;
  }

  public long enterDelayNanos() {
    return enterDelayNanos;
  }

  public long exitDelayNanos() {
    return exitDelayNanos;
  }

  public double cpuUpper() {
    return cpuUpper;
  }

  public double cpuLower() {
    return cpuLower;
  }

  /** The share of a window with a waiting request that switches to LIFO (queue delay). */
  public double enterShare() {
    return enterShare;
  }

  /** Windows in a row under the lower threshold before LIFO switches back to FIFO. */
  public int dwell() {
    return dwell;
  }

  public int singleCapacity() {
    return singleCapacity;
  }

  /** Capacity of a class's queue: configured, else 25 for transactions and 50 for browsing. */
  public int capacity(ClassDefinition c) {
    Integer configured = classCapacity.get(c.name());
    if (configured != null) {
      return configured;
    }
    return c.kind() == RequestKind.TRANSACTION ? transactionCapacity : browsingCapacity;
  }

  /** How long a request of class {@code c} may wait before it expires with 503. */
  public long maxWaitNanos(ClassDefinition c) {
    return classMaxWait.getOrDefault(c.name(), maxWaitNanos);
  }

  /** The longest max wait of any class, for the container's async timeout safety net. */
  public long longestMaxWaitNanos() {
    long longest = maxWaitNanos;
    for (long classWait : classMaxWait.values()) {
      longest = Math.max(longest, classWait);
    }
    return longest;
  }

  /** Settings of endpoint {@code name}, or null when none are configured. */
  public EndpointQueueSettings endpoint(String name) {
    return endpoints.get(name);
  }

  /** Settings of endpoint {@code name}, the defaults when none are configured. */
  public EndpointQueueSettings endpointOrDefaults(String name) {
    return endpoints.getOrDefault(name, unconfigured);
  }

  public Map<String, EndpointQueueSettings> endpoints() {
    return Map.copyOf(endpoints);
  }
}
