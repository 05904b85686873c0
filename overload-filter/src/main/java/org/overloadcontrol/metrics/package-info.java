/**
 * Observability of the engine, free of servlet and Jetty types: Dropwizard gauges over the
 * engine's own counters and controllers ({@link org.overloadcontrol.metrics.OverloadMetrics}),
 * the overload watch that logs an endpoint entering and leaving overload
 * ({@link org.overloadcontrol.metrics.OverloadWatch}), the {@code /overload/status} document
 * ({@link org.overloadcontrol.metrics.StatusJson}),
 * the Prometheus text exposition ({@link org.overloadcontrol.metrics.PrometheusText}) and who may
 * read them ({@link org.overloadcontrol.metrics.StatusAccess}). SEDA (Welsh et al. 2001, §3.4)
 * makes introspection a design goal: an operator must see which stage sheds and why.
 */
package org.overloadcontrol.metrics;
