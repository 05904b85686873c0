package org.overloadcontrol.metrics.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * The {@code micrometer} binding: the engine's metrics as Micrometer meters (counts as
 * {@code FunctionCounter}s, the rest as gauges, endpoint and class as tags), bound to the
 * application's {@link MeterRegistry} when it supplies one, else to Micrometer's global
 * composite registry ({@link Metrics#globalRegistry}), as a {@code MeterBinder} would. Found by
 * {@link java.util.ServiceLoader}; see {@link MetricsBinding}.
 */
public final class MicrometerBinding implements MetricsBinding {

  @Override
  public String name() {
    return "micrometer";
  }

  @Override
  public MetricsRecorder open(BindingContext context) {
    return new MicrometerRecorder(
        context.applicationRegistry() instanceof MeterRegistry r ? r : Metrics.globalRegistry);
  }
}
