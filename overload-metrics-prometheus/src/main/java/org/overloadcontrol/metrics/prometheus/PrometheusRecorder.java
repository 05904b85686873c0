package org.overloadcontrol.metrics.prometheus;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.overloadcontrol.metrics.Scrape;

/**
 * Records the engine's metrics as Prometheus families with callbacks: one collector per family
 * (e.g. {@code overload_arrivals}), registered when its first series arrives, that reads every
 * series of the family (one per endpoint and class) at each scrape.
 */
final class PrometheusRecorder implements MetricsRecorder {

  private static final OverloadLog LOG = OverloadLog.get(PrometheusRecorder.class);

  private final PrometheusRegistry registry;
  private final Map<String, Family> families = new ConcurrentHashMap<>();
  private final PrometheusTextFormatWriter text = new PrometheusTextFormatWriter(false);

  PrometheusRecorder(PrometheusRegistry registry) {
    this.registry = registry;
  }

  /** One family's series, by label values, and the collector that reads them. */
  private static final class Family {
    final Map<List<String>, DoubleSupplier> series = new ConcurrentHashMap<>();
    Collector collector;
  }

  @Override
  public void count(MetricId id, LongSupplier count) {
    record(id, true, count::getAsLong);
  }

  @Override
  public void gauge(MetricId id, DoubleSupplier value) {
    record(id, false, value);
  }

  private synchronized void record(MetricId id, boolean count, DoubleSupplier reading) {
    Family family = families.get(id.family());
    if (family == null) {
      family = new Family();
      family.collector = count ? counter(id, family) : gauge(id, family);
      try {
        registry.register(family.collector);
      } catch (IllegalArgumentException | IllegalStateException e) {
        // The family is taken: another filter shares an application's registry. Keep the
        // existing one rather than fail the start.
        LOG.warn(
            "overload-control: metric family {} already exists in the registry; not"
                + " registered",
            id.family());
        family.collector = null;
      }
      families.put(id.family(), family);
    }
    family.series.put(id.labelValues(), reading);
  }

  private static Collector counter(MetricId id, Family family) {
    return CounterWithCallback.builder()
        .name(id.family())
        .labelNames(id.labelNames().toArray(String[]::new))
        .callback(
            c ->
                family.series.forEach(
                    (labels, reading) ->
                        c.call(reading.getAsDouble(), labels.toArray(String[]::new))))
        .build();
  }

  private static Collector gauge(MetricId id, Family family) {
    return GaugeWithCallback.builder()
        .name(id.family())
        .labelNames(id.labelNames().toArray(String[]::new))
        .callback(
            g ->
                family.series.forEach(
                    (labels, reading) ->
                        g.call(reading.getAsDouble(), labels.toArray(String[]::new))))
        .build();
  }

  @Override
  public Optional<Scrape> scrape() {
    return Optional.of(
        new Scrape() {
          @Override
          public String contentType() {
            return PrometheusTextFormatWriter.CONTENT_TYPE;
          }

          @Override
          public void write(OutputStream out) throws IOException {
            text.write(out, registry.scrape());
          }
        });
  }

  @Override
  public synchronized void close() {
    for (Family f : families.values()) {
      if (f.collector != null) {
        registry.unregister(f.collector);
      }
    }
    families.clear();
  }
}
