package org.overloadcontrol.metrics.prometheus;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * The {@code prometheus} binding: the engine's metrics as labelled families of the maintained
 * Prometheus Java client (1.x), counts as counters (exported with {@code _total}), in the
 * application's {@link PrometheusRegistry} when it supplies one (e.g. the client's default
 * registry, which its exporters serve) or in one of the binding's own, and served at
 * {@code /overload/metrics} either way. Found by {@link java.util.ServiceLoader}; see
 * {@link MetricsBinding}.
 */
public final class PrometheusBinding implements MetricsBinding {

  @Override
  public String name() {
    return "prometheus";
  }

  @Override
  public MetricsRecorder open(BindingContext context) {
    return new PrometheusRecorder(
        context.applicationRegistry() instanceof PrometheusRegistry r
            ? r
            : new PrometheusRegistry());
  }
}
