package org.overloadcontrol.metrics.dropwizard;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * Records the engine's counts as Dropwizard counters ({@link SuppliedCounter}, which read the
 * engine's count) and its other values as {@link Gauge}s. A reporter that wants rates derives
 * them from the counts.
 */
final class DropwizardRecorder implements MetricsRecorder {

  private static final OverloadLog LOG = OverloadLog.get(DropwizardRecorder.class);

  private final MetricRegistry registry;
  private final JmxReporter jmx;
  private final Set<String> names = ConcurrentHashMap.newKeySet();

  DropwizardRecorder(MetricRegistry registry, JmxReporter jmx) {
    this.registry = registry;
    this.jmx = jmx;
  }

  @Override
  public void count(MetricId id, LongSupplier count) {
    register(id, new SuppliedCounter(count));
  }

  @Override
  public void gauge(MetricId id, DoubleSupplier value) {
    register(id, (Gauge<Double>) value::getAsDouble);
  }

  private void register(MetricId id, Metric metric) {
    try {
      registry.register(id.dropwizardName(), metric);
      names.add(id.dropwizardName());
    } catch (IllegalArgumentException e) {
      // The name is taken: another filter shares an application's registry, or an endpoint
      // name collides. Keep the existing metric rather than fail the request path.
      LOG.warn(
          "overload-control: metric {} already exists in the registry; not registered",
          id.dropwizardName());
    }
  }

  @Override
  public void close() {
    if (jmx != null) {
      jmx.close();
    }
    for (String name : names) {
      registry.remove(name);
    }
    names.clear();
  }
}
