package org.overloadcontrol.metrics;

/**
 * A metrics library the engine can report to, found with {@link java.util.ServiceLoader} (as
 * HikariCP's metrics tracker factory lets a pool report to any library): the core measures
 * with state it keeps anyway and knows no metrics library; each {@code overload-metrics-*}
 * module binds one. Which bindings run is {@code metrics.binding}: by default every binding on
 * the class path, none when there is none (the no-op default), or the ones named.
 *
 * <p>SEDA (Welsh et al. 2001, §3.4) makes introspection a design goal; this keeps it from
 * costing an application a metrics library it does not use.
 */
public interface MetricsBinding {

  /** The name that selects this binding in {@code metrics.binding}, e.g. {@code prometheus}. */
  String name();

  /** Starts reporting one engine's metrics; the recorder is closed when the engine stops. */
  MetricsRecorder open(BindingContext context);
}
