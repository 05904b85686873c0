package org.overloadcontrol.metrics.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * Records the engine's metrics as Micrometer meters named by their family in Micrometer's
 * dotted form ({@code overload.arrivals} for the family {@code overload_arrivals}), with the
 * labels as tags. Each registry renders the name in its own convention: Prometheus writes the
 * family itself ({@code overload_arrivals_total} for a counter), others keep the dots or
 * camel-case them. The meters' readings are held strongly here: the engine keeps no other
 * reference to them, and a {@code FunctionCounter} holds its object only weakly, so a counter
 * whose reading was collected would stay at its last value.
 */
final class MicrometerRecorder implements MetricsRecorder {

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final List<LongSupplier> counts = new ArrayList<>();

  MicrometerRecorder(MeterRegistry registry) {
    this.registry = registry;
  }

  private static List<Tag> tags(MetricId id) {
    List<Tag> tags = new ArrayList<>();
    for (int i = 0; i < id.labelNames().size(); i++) {
      tags.add(Tag.of(id.labelNames().get(i), id.labelValues().get(i)));
    }
    return tags;
  }

  /**
   * Micrometer's name for a family: words separated by dots, so that a registry whose convention
   * is not Prometheus's (JMX, StatsD, the actuator's own listing) does not show underscores.
   */
  static String name(MetricId id) {
    return id.family().replace('_', '.');
  }

  @Override
  public synchronized void count(MetricId id, LongSupplier count) {
    counts.add(count);
    meters.add(
        FunctionCounter.builder(name(id), count, LongSupplier::getAsLong)
            .tags(tags(id))
            .register(registry));
  }

  @Override
  public synchronized void gauge(MetricId id, DoubleSupplier value) {
    meters.add(
        Gauge.builder(name(id), value, DoubleSupplier::getAsDouble)
            .tags(tags(id))
            .strongReference(true)
            .register(registry));
  }

  @Override
  public synchronized void close() {
    for (Meter m : meters) {
      registry.remove(m);
    }
    meters.clear();
    counts.clear();
  }
}
