package org.overloadcontrol.internal.metrics;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.metrics.BindingContext;
import org.overloadcontrol.metrics.MetricId;
import org.overloadcontrol.metrics.MetricsBinding;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.overloadcontrol.metrics.Scrape;

/**
 * The recorders of the bindings {@code metrics.binding} selects, as one: each metric goes to
 * every one of them, and the first that writes an exposition format serves
 * {@code /overload/metrics}.
 */
final class BoundRecorders implements MetricsRecorder {

  private static final OverloadLog LOG = OverloadLog.get(BoundRecorders.class);

  private final List<MetricsRecorder> recorders;

  private BoundRecorders(List<MetricsRecorder> recorders) {
    this.recorders = List.copyOf(recorders);
  }

  /**
   * Opens the selected bindings among those on the class path.
   *
   * @throws OverloadConfigException if {@code metrics.binding} names one that is not there
   */
  static MetricsRecorder open(BindingContext context) {
    Map<String, MetricsBinding> found = new LinkedHashMap<>();
    Iterator<MetricsBinding> bindings =
        ServiceLoader.load(MetricsBinding.class, MetricsBinding.class.getClassLoader()).iterator();
    while (true) {
      MetricsBinding b;
      try {
        if (!bindings.hasNext()) {
          break;
        }
        b = bindings.next();
      } catch (ServiceConfigurationError e) {
        // A binding another class loader sees (a WAR carrying the core while the container's
        // class path has a binding module) is not ours to use; the others still are.
        LOG.warn(
            "overload-control: a metrics binding on the class path cannot be used: {}",
            e.getMessage());
        continue;
      }
      found.putIfAbsent(b.name(), b);
    }
    List<String> names = context.settings().bindings().orElse(List.copyOf(found.keySet()));
    List<MetricsRecorder> opened = new ArrayList<>();
    for (String name : names) {
      MetricsBinding b = found.get(name);
      if (b == null) {
        throw OverloadConfigException.of(
            "metrics.binding",
            name,
            null,
            "no metrics binding of"
                + " that name is on the class path (add the module overload-metrics-"
                + name
                + "); found: "
                + (found.isEmpty() ? "none" : String.join(", ", found.keySet())));
      }
      opened.add(b.open(context));
    }
    return opened.isEmpty() ? NONE : new BoundRecorders(opened);
  }

  @Override
  public void count(MetricId id, LongSupplier count) {
    for (MetricsRecorder r : recorders) {
      r.count(id, count);
    }
  }

  @Override
  public void gauge(MetricId id, DoubleSupplier value) {
    for (MetricsRecorder r : recorders) {
      r.gauge(id, value);
    }
  }

  @Override
  public Optional<Scrape> scrape() {
    return recorders.stream().map(MetricsRecorder::scrape).flatMap(Optional::stream).findFirst();
  }

  @Override
  public void close() {
    for (MetricsRecorder r : recorders) {
      r.close();
    }
  }
}
