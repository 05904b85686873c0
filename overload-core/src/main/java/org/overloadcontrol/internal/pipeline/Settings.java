package org.overloadcontrol.internal.pipeline;

import java.util.List;
import java.util.Objects;
import org.overloadcontrol.cluster.ClusterSettings;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.bandwidth.BandwidthSettings;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.classify.BypassPaths;
import org.overloadcontrol.internal.cluster.ClusterSettingsReader;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.metrics.MetricsSettingsReader;
import org.overloadcontrol.internal.metrics.StatusAccess;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.session.SessionSettings;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueSettings;
import org.overloadcontrol.metrics.MetricsSettings;

/**
 * The whole configuration of one filter or handler, every section parsed and validated at once
 * when it starts, so that both adapters refuse exactly the same inputs with the same
 * key-naming {@link OverloadConfigException} (a misspelled {@code metrics.} key stops the Jetty
 * handler as it stops the filter), and nothing is left to fail on the first request. The
 * runtime hands each feature its typed section from here, so no feature parses its keys again.
 *
 * @param config the core keys (classes, endpoints, targets, controller parameters)
 */
public record Settings(
    OverloadConfig config,
    AdmissionSettings admission,
    QueueSettings queue,
    DegradeSettings degrade,
    VirtualQueueSettings virtualQueue,
    BandwidthSettings bandwidth,
    MetricsSettings metrics,
    SessionSettings sessions,
    ClusterSettings cluster) {

  /**
   * The probe paths {@code bypass.paths} holds when no layer sets it, for an adapter that adds
   * its framework's own probes to them.
   */
  public static final List<String> DEFAULT_BYPASS_PATHS = BypassPaths.DEFAULTS;

  public Settings {
    Objects.requireNonNull(config, "config");
  }

  /**
   * Parses layers of flat keys, lowest precedence first, and validates every section.
   *
   * @throws OverloadConfigException naming the key, value and origin of the first problem
   */
  public static Settings parse(List<ConfigSource> layers) {
    return of(OverloadConfig.parse(layers));
  }

  /**
   * Refuses keys for an endpoint that neither the adapter ({@code known}: servlet names and
   * {@code @Endpoint}s, or the Jetty handler's default endpoint) nor a paths rule routes
   * requests to, naming the key and the closest known name.
   *
   * @param layers the layers this configuration was parsed from, for the key to quote
   */
  public Settings requireKnownEndpoints(
      List<ConfigSource> layers, java.util.Collection<String> known) {
    KnownEndpoints.require(this, layers, known);
    return this;
  }

  /**
   * The ceiling of {@code endpoint}'s concurrency limit ({@code admission.maxLimit} of its
   * group), which an adapter says at start beside its container's threads.
   */
  public int maxLimit(String endpoint) {
    return admission.groupOf(endpoint).maxLimit();
  }

  /** Whether overload control is on ({@code enabled}); off, every request passes untouched. */
  public boolean enabled() {
    return config.enabled();
  }

  /** The {@code rejectionHandler} class name, or null when not set. */
  public String rejectionHandler() {
    return config.rejectionHandler();
  }

  /** How many request classes are configured, for an adapter's start line. */
  public int classCount() {
    return config.classes().size();
  }

  /** How many endpoints are configured, for an adapter's start line. */
  public int endpointCount() {
    return config.endpoints().size();
  }

  /** Whether requests may wait for a permit ({@code queue.permits} set). */
  public boolean queuesEnabled() {
    return queue.enabled();
  }

  /**
   * Whether a request that would wait but cannot be held without its thread is refused at once
   * ({@code queue.nonAsync: reject}) rather than waiting on its thread.
   */
  public boolean rejectsWithoutAsync() {
    return queue.nonAsync() == QueueSettings.NonAsync.REJECT;
  }

  /** Validates every section of an already parsed configuration. */
  public static Settings of(OverloadConfig config) {
    AdmissionSettings admission = AdmissionSettings.from(config);
    QueueSettings queue = QueueSettings.from(config);
    DegradeSettings degrade = DegradeSettings.from(config);
    VirtualQueueSettings virtualQueue = VirtualQueueSettings.from(config.section("virtualQueue"));
    BandwidthSettings bandwidth = BandwidthSettings.from(config.section("bandwidth"));
    MetricsSettings metrics = MetricsSettingsReader.read(config.section("metrics"));
    // The status servlet may override these keys with its own init-params; the section itself
    // must still be valid, whoever reads it.
    StatusAccess.from(config.section("status"), null, null);
    Settings settings =
        new Settings(
            config,
            admission,
            queue,
            degrade,
            virtualQueue,
            bandwidth,
            metrics,
            SessionSettings.from(config.section("sessions")),
            ClusterSettingsReader.read(config.section("cluster")));
    config.bypassPaths();
    // Controller parameters are resolved per endpoint and class when an endpoint is first used;
    // resolving the configured ones now moves a bad combination to the start.
    for (String endpoint : config.endpoints().keySet()) {
      for (ClassDefinition c : config.classes().values()) {
        config.settingsFor(endpoint, c);
      }
    }
    return settings;
  }
}
