package org.overloadcontrol.internal.metrics;

import java.util.List;
import java.util.Locale;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.metrics.MetricId;

/**
 * The names of every metric the filter registers, in one place; {@code docs/observability.md}
 * lists them with their units. Dotted names (Dropwizard, JMX) are paths:
 *
 * <pre>
 *   overload.endpoint.&lt;endpoint&gt;.class.&lt;class&gt;.&lt;metric&gt;   per endpoint and class
 *   overload.endpoint.&lt;endpoint&gt;.&lt;metric&gt;                   per endpoint
 *   overload.endpoint.&lt;endpoint&gt;.state.&lt;state&gt;              per endpoint and state
 *   overload.queue.class.&lt;class&gt;.length                     per wait queue (class)
 *   overload.queue.&lt;metric&gt;                                 the wait queues as a whole
 *   overload.bandwidth.group.&lt;group&gt;.&lt;metric&gt;             per bandwidth client group
 *   overload.bandwidth.&lt;metric&gt;                             the bandwidth shaper
 *   overload.virtual_queue.refusals.&lt;reason&gt;                virtual-queue refusals
 *   overload.virtual_queue.&lt;metric&gt;                         the virtual queue
 *   overload.config.&lt;metric&gt;                                the configuration and its reloads
 * </pre>
 *
 * and each maps to a family (Prometheus, Micrometer) {@code overload_<metric>} (per endpoint:
 * {@code overload_endpoint_<metric>}, queues: {@code overload_queue_<metric>}, bandwidth:
 * {@code overload_bandwidth_<metric>}, virtual queue: {@code overload_virtual_queue_<metric>})
 * with labels {@code endpoint}, {@code class}, {@code group} and, for outcomes, refusals and
 * states, {@code outcome}, {@code reason} or {@code state}.
 */
final class MetricNames {

  /** The prefix of every name. */
  public static final String PREFIX = "overload";

  // Per endpoint and class.
  public static final String ARRIVALS = "arrivals";
  public static final String OUTCOMES = "outcomes";
  public static final String ENQUEUED = "enqueued";
  public static final String ABANDONED = "abandoned";
  public static final String WAIT_SECONDS = "wait_seconds";
  public static final String P90_ESTIMATE_SECONDS = "p90_estimate_seconds";
  public static final String P90_SAMPLE_SECONDS = "p90_sample_seconds";
  public static final String P90_TARGET_SECONDS = "p90_target_seconds";
  public static final String ADMISSION_RATE = "admission_rate";

  // Per endpoint.
  public static final String PERMITS_IN_USE = "permits_in_use";
  public static final String PERMITS_LIMIT = "permits_limit";
  public static final String WAITING = "waiting";
  public static final String ADMISSION_ENABLED = "admission_enabled";
  public static final String QUALITY = "quality";
  public static final String MIN_QUALITY = "min_quality";
  public static final String STATE = "state";
  public static final String REFUSED_SHARE = "refused_share";
  public static final String QUEUE_THRESHOLD = "queue_threshold";

  // Wait queues.
  public static final String LENGTH = "length";
  public static final String LIFO = "lifo";

  // Bandwidth shares (Li & Jamin): per group, then the shaper.
  public static final String ALLOCATED_BYTES_PER_SECOND = "allocated_bytes_per_second";
  public static final String AVERAGE_BYTES_PER_SECOND = "average_bytes_per_second";
  public static final String ACTIVE = "active";
  public static final String DELAYED_NOW = "delayed_now";
  public static final String ADMITTED = "admitted";
  public static final String REFUSED = "refused";
  public static final String TOTAL_BYTES_PER_SECOND = "total_bytes_per_second";
  public static final String MAX_MEASURED_BYTES_PER_SECOND = "max_measured_bytes_per_second";

  // The virtual queue (WebQ).
  public static final String PASSED = "passed";
  public static final String TOKEN_ADMITTED = "token_admitted";
  public static final String TOLD_TO_WAIT = "told_to_wait";
  public static final String REFUSALS = "refusals";
  public static final String CURRENT_WAIT_SECONDS = "current_wait_seconds";
  public static final String CAPACITY_SUBUNITS_PER_SECOND = "capacity_subunits_per_second";
  public static final String SHARE_SUBUNITS_PER_SECOND = "share_subunits_per_second";
  public static final String UNANSWERED_CLAIMS = "unanswered_claims";

  // Session-aware admission (Cherkasova & Phaal).
  public static final String ADMITTED_NOW = "admitted_now";
  public static final String NEW_REFUSED = "new_refused";
  public static final String MID_SESSION_REFUSALS = "mid_session_refusals";
  public static final String COMPLETED = "completed";

  // The configuration in force and its reloads (docs/guide/reload.md).
  public static final String VERSION = "version";
  public static final String RELOADS = "reloads";
  public static final String RELOAD_FAILURES = "reload_failures";

  private MetricNames() {}

  /** A dotted name, the form Dropwizard and JMX use. */
  private static String name(String... parts) {
    return String.join(".", parts);
  }

  /** A metric of one class at one endpoint. */
  public static MetricId endpointClass(String endpoint, String requestClass, String metric) {
    return new MetricId(
        name(PREFIX, "endpoint", endpoint, "class", requestClass, metric),
        PREFIX + "_" + metric,
        List.of("endpoint", "class"),
        List.of(endpoint, requestClass));
  }

  /** The count of one outcome of one class at one endpoint. */
  public static MetricId outcome(String endpoint, String requestClass, Outcome outcome) {
    String name = outcome.name().toLowerCase(Locale.ROOT);
    return new MetricId(
        name(PREFIX, "endpoint", endpoint, "class", requestClass, OUTCOMES, name),
        PREFIX + "_" + OUTCOMES,
        List.of("endpoint", "class", "outcome"),
        List.of(endpoint, requestClass, name));
  }

  /** A metric of one endpoint. */
  public static MetricId endpoint(String endpoint, String metric) {
    return new MetricId(
        name(PREFIX, "endpoint", endpoint, metric),
        PREFIX + "_endpoint_" + metric,
        List.of("endpoint"),
        List.of(endpoint));
  }

  /**
   * Whether one endpoint is in one state, 1 or 0: one series per state, as Prometheus and
   * OpenMetrics write an enumeration (a state set), so counting endpoints per state is a sum and
   * an alert names the state rather than a number.
   */
  public static MetricId endpointState(String endpoint, EndpointState state) {
    return new MetricId(
        name(PREFIX, "endpoint", endpoint, STATE, state.word()),
        PREFIX + "_endpoint_" + STATE,
        List.of("endpoint", "state"),
        List.of(endpoint, state.word()));
  }

  /** The length of one class's wait queue. */
  public static MetricId queueLength(String requestClass) {
    return new MetricId(
        name(PREFIX, "queue", "class", requestClass, LENGTH),
        PREFIX + "_queue_" + LENGTH,
        List.of("class"),
        List.of(requestClass));
  }

  /** A metric of the wait queues as a whole. */
  public static MetricId queues(String metric) {
    return new MetricId(
        name(PREFIX, "queue", metric), PREFIX + "_queue_" + metric, List.of(), List.of());
  }

  /** A metric of one bandwidth client group. */
  public static MetricId bandwidthGroup(String group, String metric) {
    return new MetricId(
        name(PREFIX, "bandwidth", "group", group, metric),
        PREFIX + "_bandwidth_" + metric,
        List.of("group"),
        List.of(group));
  }

  /** A metric of the bandwidth shaper as a whole. */
  public static MetricId bandwidth(String metric) {
    return new MetricId(
        name(PREFIX, "bandwidth", metric), PREFIX + "_bandwidth_" + metric, List.of(), List.of());
  }

  /** The count of the virtual queue's refusals for one reason ({@code VirtualQueueRejection.code()}). */
  public static MetricId virtualQueueRefusals(String reason) {
    return new MetricId(
        name(PREFIX, "virtual_queue", REFUSALS, reason),
        PREFIX + "_virtual_queue_" + REFUSALS,
        List.of("reason"),
        List.of(reason));
  }

  /** A metric of the virtual queue. */
  public static MetricId virtualQueue(String metric) {
    return new MetricId(
        name(PREFIX, "virtual_queue", metric),
        PREFIX + "_virtual_queue_" + metric,
        List.of(),
        List.of());
  }

  /** A metric of the configuration in force and its reloads. */
  public static MetricId config(String metric) {
    return new MetricId(
        name(PREFIX, "config", metric), PREFIX + "_config_" + metric, List.of(), List.of());
  }

  /** A metric of session-aware admission. */
  public static MetricId sessions(String metric) {
    return new MetricId(
        name(PREFIX, "sessions", metric), PREFIX + "_sessions_" + metric, List.of(), List.of());
  }
}
