package org.overloadcontrol.metrics.dropwizard;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.overloadcontrol.metrics.MetricsSettings;

/**
 * The {@code dropwizard} binding: the engine's counts as counters and its other values as gauges
 * in a Dropwizard {@link MetricRegistry} under their dotted names, the application's registry
 * when it supplies one, else one of the binding's own, which a JMX reporter exposes
 * ({@code metrics.jmx}, {@code metrics.jmxDomain}). Found by {@link java.util.ServiceLoader}; see
 * {@link MetricsBinding}.
 */
public final class DropwizardBinding implements MetricsBinding {

  @Override
  public String name() {
    return "dropwizard";
  }

  @Override
  public MetricsRecorder open(BindingContext context) {
    boolean own = !(context.applicationRegistry() instanceof MetricRegistry);
    MetricRegistry registry =
        own ? new MetricRegistry() : (MetricRegistry) context.applicationRegistry();
    MetricsSettings settings = context.settings();
    JmxReporter jmx = null;
    if (settings.jmx(own)) {
      jmx =
          JmxReporter.forRegistry(registry)
              .inDomain(settings.jmxDomain(context.contextPath()))
              .build();
      jmx.start();
    }
    return new DropwizardRecorder(registry, jmx);
  }
}
