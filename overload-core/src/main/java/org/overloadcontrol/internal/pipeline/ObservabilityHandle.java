package org.overloadcontrol.internal.pipeline;

import java.util.Objects;
import java.util.Optional;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.metrics.Scrape;

/**
 * The observability of a running adapter (docs/observability.md: metrics, JMX, the overload log,
 * the status document), as the adapter starts, publishes and closes it and as its status page
 * reads it. The adapter publishes {@link #published()} in its container (the servlet-context
 * attribute {@link #ATTRIBUTE}) for the status page, the Spring health indicator and the
 * application, and finds it there again with {@link #of}.
 */
public final class ObservabilityHandle implements AutoCloseable {

  /** The servlet-context attribute holding the running filter's observability. */
  public static final String ATTRIBUTE = Observability.ATTRIBUTE;

  /** The servlet-context attribute an application sets to its metric registry before start. */
  public static final String REGISTRY_ATTRIBUTE = Observability.REGISTRY_ATTRIBUTE;

  private final Observability observability;

  private ObservabilityHandle(Observability observability) {
    this.observability = Objects.requireNonNull(observability, "observability");
  }

  /**
   * Starts the observability of {@code runtime}'s configuration in force: after an applied
   * reload the adapter closes it and starts it again ({@link OverloadRuntime#observability}).
   *
   * @param registry the application's metric registry, or null
   * @param contextPath the context path the metrics are tagged with
   * @throws OverloadConfigException when a {@code metrics.} key cannot be honoured
   */
  public static ObservabilityHandle start(
      OverloadRuntime runtime, Object registry, String contextPath) {
    return new ObservabilityHandle(
        runtime.observability().registry(registry).contextPath(contextPath).build());
  }

  /** The observability {@code attribute} holds (as published), or null when it holds none. */
  public static ObservabilityHandle of(Object attribute) {
    return attribute instanceof Observability o ? new ObservabilityHandle(o) : null;
  }

  /** What the adapter publishes, under {@link #ATTRIBUTE}. */
  public Object published() {
    return observability;
  }

  /** Whether {@code attribute} is this observability, as published. */
  public boolean isPublishedAs(Object attribute) {
    return attribute == observability;
  }

  /** The status document (JSON) the status page serves. */
  public String statusJson() {
    return observability.statusJson();
  }

  /** Each endpoint's state as the watch last judged it: what a health check reports. */
  public EndpointStates endpointStates() {
    return EndpointStates.of(observability);
  }

  /** The Prometheus text, when a metrics binding writes it. */
  public Optional<Scrape> scrape() {
    return observability.scrape();
  }

  /**
   * Who may read this status: its {@code status.} keys, or the given parameters where set.
   *
   * @throws OverloadConfigException naming the parameter when it is not an address list
   */
  public StatusGate statusGate(String allowParam, String roleParam) {
    return StatusGate.of(observability, allowParam, roleParam);
  }

  /** Removes its metrics and stops its periodic task. */
  @Override
  public void close() {
    observability.close();
  }
}
