package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * A recorder for tests: keeps what the engine hands over, by dotted name, and reads it back
 * the way a metrics library would when it collects.
 */
final class RecordedMetrics implements MetricsRecorder {

  /** One recorded metric: its names, whether it is a count, and its reading. */
  record Recorded(MetricId id, boolean count, DoubleSupplier reading) {}

  private final Map<String, Recorded> metrics = new TreeMap<>();
  private boolean closed;

  @Override
  public synchronized void count(MetricId id, java.util.function.LongSupplier count) {
    metrics.put(id.dropwizardName(), new Recorded(id, true, count::getAsLong));
  }

  @Override
  public synchronized void gauge(MetricId id, DoubleSupplier value) {
    metrics.put(id.dropwizardName(), new Recorded(id, false, value));
  }

  @Override
  public synchronized void close() {
    metrics.clear();
    closed = true;
  }

  synchronized boolean closed() {
    return closed;
  }

  synchronized Set<String> names() {
    return Set.copyOf(metrics.keySet());
  }

  synchronized Recorded get(String name) {
    Recorded r = metrics.get(name);
    assertThat(r).as("metric %s", name).isNotNull();
    return r;
  }

  /**
   * The metrics as a Prometheus client names them: by family, a count's with {@code _total},
   * each series as its labels plus {@code __value__}.
   */
  synchronized Map<String, List<Map<String, String>>> families() {
    Map<String, List<Map<String, String>>> families = new TreeMap<>();
    for (Recorded r : metrics.values()) {
      Map<String, String> series = new HashMap<>();
      for (int i = 0; i < r.id().labelNames().size(); i++) {
        series.put(r.id().labelNames().get(i), r.id().labelValues().get(i));
      }
      series.put("__value__", String.valueOf(r.reading().getAsDouble()));
      String family = r.id().family() + (r.count() ? "_total" : "");
      families.computeIfAbsent(family, k -> new ArrayList<>()).add(series);
    }
    return families;
  }

  double value(String name) {
    return get(name).reading().getAsDouble();
  }
}
