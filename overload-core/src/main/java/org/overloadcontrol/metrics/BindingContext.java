package org.overloadcontrol.metrics;

/**
 * What a {@link MetricsBinding} needs to know about the engine it reports.
 *
 * @param applicationRegistry the application's own registry (a Dropwizard
 *     {@code MetricRegistry}, a Micrometer {@code MeterRegistry}, a Prometheus
 *     {@code PrometheusRegistry}), or null; a binding uses it when it is of its library's type
 *     and a registry of its own otherwise
 * @param contextPath the application's context path, "" for the root (for JMX domains)
 * @param settings the {@code metrics.} section
 */
public record BindingContext(
    Object applicationRegistry, String contextPath, MetricsSettings settings) {}
