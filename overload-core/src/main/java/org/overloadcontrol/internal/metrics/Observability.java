package org.overloadcontrol.internal.metrics;

import java.util.Objects;
import java.util.Optional;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.config.ConfigSection;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.virtualqueue.VirtualQueue;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.overloadcontrol.metrics.MetricsSettings;
import org.overloadcontrol.metrics.Scrape;

/**
 * Everything an adapter starts for observability, in one object: the metrics bindings
 * ({@link MetricsBinding}: none, or the ones on the class path, each with the application's own
 * registry when it supplies one of its type), the metrics ({@link OverloadMetrics}), the
 * overload watch and its log lines, and the periodic task that records new endpoints and runs
 * the watch on the adapter's scheduler thread. The status document is the engine's own
 * snapshot, so it and the dashboard work with any binding or none. The status servlet finds it
 * as the servlet-context attribute {@link #ATTRIBUTE}.
 *
 * <p>The two features that live beside the engine, bandwidth shares (Li &amp; Jamin) and the
 * virtual queue (WebQ), are shown when the adapter hands them to the {@link Builder}: in the
 * metrics and the status document alike.
 */
public final class Observability implements AutoCloseable {

  /** The servlet-context attribute under which the filter publishes this object. */
  public static final String ATTRIBUTE = Observability.class.getName();

  /**
   * The servlet-context attribute under which an application may put its own registry (a
   * Dropwizard {@code MetricRegistry}, a Micrometer {@code MeterRegistry}, a Prometheus
   * {@code PrometheusRegistry}) before the filter starts, e.g. from a
   * {@code ServletContextListener}; the binding of that library then records there instead of
   * in a registry of its own.
   */
  public static final String REGISTRY_ATTRIBUTE = "org.overloadcontrol.metrics.MetricRegistry";

  private final OverloadEngine engine;
  private final MetricsSettings settings;
  private final OverloadWatch watch;
  private final OverloadMetrics metrics;
  private final Scheduler.Cancellable task;
  private final ConfigSection statusSection;
  private final BandwidthView bandwidth;
  private final VirtualQueueView virtualQueue;
  private final java.util.function.Supplier<ConfigStatus> config;

  private Observability(Builder b) {
    this.engine = Objects.requireNonNull(b.engine, "engine");
    // Parsed here only when the caller did not hand the parsed section in.
    this.settings =
        b.settings != null
            ? b.settings
            : MetricsSettingsReader.read(b.engine.config().section("metrics"));
    this.statusSection = b.statusSection;
    this.bandwidth = b.bandwidth;
    this.virtualQueue = b.virtualQueue;
    this.config = b.config;
    StatusAccess.from(statusSection, null, null); // fail at start, not at the first status read
    this.watch =
        new OverloadWatch(settings.periodNanos(), settings.overloadQuietNanos(), b.listener);
    this.metrics =
        settings.enabled()
            ? new OverloadMetrics(
                engine,
                b.recorder != null
                    ? b.recorder
                    : BoundRecorders.open(new BindingContext(b.registry, b.contextPath, settings)),
                watch,
                bandwidth,
                virtualQueue)
            : null;
    if (metrics != null) {
      FeatureGauges.registerConfig(config, metrics.recorder());
    }
    this.task =
        settings.enabled() && b.scheduler != null
            ? b.scheduler.scheduleAtFixedRate(this::tick, settings.periodNanos())
            : null;
  }

  /**
   * A builder for the observability of {@code engine}, with the settings of its configuration's
   * {@code metrics.} and {@code status.} sections.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException if either section is invalid
   */
  public static Builder builder(OverloadEngine engine) {
    return new Builder(engine);
  }

  /** The periodic task: register what is new, then judge each endpoint's state. */
  public void tick() {
    if (metrics != null) {
      metrics.sync();
      watch.check(engine.endpoints(), engine.ticker().read());
    }
  }

  public OverloadEngine engine() {
    return engine;
  }

  /** The metrics, or null when {@code metrics.enabled} is false. */
  public OverloadMetrics metrics() {
    return metrics;
  }

  /** The {@code status.} configuration section, for the status servlet's access rules. */
  public ConfigSection statusSection() {
    return statusSection;
  }

  public OverloadWatch watch() {
    return watch;
  }

  /** The {@code /overload/status} JSON document now. */
  public String statusJson() {
    if (metrics != null) {
      metrics.sync();
    }
    return StatusJson.write(engine, watch, bandwidth, virtualQueue, config.get());
  }

  /**
   * The metrics in a text exposition format, from the first bound library that writes one
   * (Prometheus); empty when none does.
   */
  public Optional<Scrape> scrape() {
    if (metrics == null) {
      return Optional.empty();
    }
    metrics.sync();
    return metrics.recorder().scrape();
  }

  /** Stops the task and closes the bindings, which remove the engine's metrics. */
  @Override
  public void close() {
    if (task != null) {
      task.cancel();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  /** Builds an {@link Observability}; only the engine is required. */
  public static final class Builder {
    private final OverloadEngine engine;
    private MetricsSettings settings;
    private Object registry;
    private MetricsRecorder recorder;
    private Scheduler scheduler;
    private StateChange.Listener listener = new LoggingStateListener();
    private String contextPath = "";
    private ConfigSection statusSection;
    private BandwidthView bandwidth;
    private VirtualQueueView virtualQueue;
    private java.util.function.Supplier<ConfigStatus> config = () -> ConfigStatus.STARTED;

    private Builder(OverloadEngine engine) {
      this.engine = engine;
      this.statusSection = engine.config().section("status");
    }

    /** Settings other than the engine configuration's {@code metrics.} section. */
    public Builder settings(MetricsSettings value) {
      this.settings = Objects.requireNonNull(value, "settings");
      return this;
    }

    /**
     * The application's registry, or null: each binding records in it when it is of its
     * library's type, in a registry of its own otherwise.
     */
    public Builder registry(Object value) {
      this.registry = value;
      return this;
    }

    /**
     * Records to {@code value} instead of the bindings {@code metrics.binding} selects: for an
     * application that reports its own way, and for tests.
     */
    public Builder recorder(MetricsRecorder value) {
      this.recorder = value;
      return this;
    }

    /** Runs the periodic task; without one, call {@link Observability#tick} by hand. */
    public Builder scheduler(Scheduler value) {
      this.scheduler = value;
      return this;
    }

    /** Told of every change of an endpoint's state; by default, a log line each. */
    public Builder stateListener(StateChange.Listener value) {
      this.listener = Objects.requireNonNull(value, "listener");
      return this;
    }

    /** The application's context path, for a binding's default JMX domain. */
    public Builder contextPath(String value) {
      this.contextPath = value == null ? "" : value;
      return this;
    }

    /** The bandwidth shares to show, or null (the default) when they are off. */
    public Builder bandwidth(BandwidthView value) {
      this.bandwidth = value;
      return this;
    }

    /** Shows {@code shaper}'s groups; null when bandwidth shares are off. */
    public Builder bandwidth(BandwidthShaper shaper) {
      return bandwidth(shaper == null ? null : BandwidthView.of(shaper));
    }

    /** The virtual queue to show, or null (the default) when it is off. */
    public Builder virtualQueue(VirtualQueueView value) {
      this.virtualQueue = value;
      return this;
    }

    /** Shows {@code queue}; null when the virtual queue is off. */
    public Builder virtualQueue(VirtualQueue queue) {
      return virtualQueue(queue == null ? null : VirtualQueueView.of(queue));
    }

    /** The configuration's version and last reload, read at each status read and scrape. */
    public Builder configStatus(java.util.function.Supplier<ConfigStatus> value) {
      this.config = Objects.requireNonNull(value, "configStatus");
      return this;
    }

    public Observability build() {
      return new Observability(this);
    }
  }
}
