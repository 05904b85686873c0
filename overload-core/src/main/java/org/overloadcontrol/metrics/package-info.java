/**
 * The metrics SPI a metrics module implements: a {@link
 * org.overloadcontrol.metrics.MetricsBinding} found with {@link java.util.ServiceLoader} receives
 * the engine's metrics through a {@link org.overloadcontrol.metrics.BindingContext} and a {@link
 * org.overloadcontrol.metrics.MetricsRecorder}, each named by a {@link
 * org.overloadcontrol.metrics.MetricId}, and may write an exposition
 * format ({@link org.overloadcontrol.metrics.Scrape}). The engine's observability itself (the
 * metrics, the overload watch, the status document and who may read it) is internal, in {@code
 * org.overloadcontrol.internal.metrics}.
 */
package org.overloadcontrol.metrics;
