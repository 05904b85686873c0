/**
 * Observability of the engine, free of servlet, Jetty and metrics-library types: the engine's
 * metrics handed to whichever metrics libraries are bound ({@link
 * org.overloadcontrol.metrics.OverloadMetrics}, {@link org.overloadcontrol.metrics.MetricsBinding},
 * no-op when none is), the overload watch that logs an endpoint entering and leaving overload
 * ({@link org.overloadcontrol.metrics.OverloadWatch}), the {@code /overload/status} document read
 * from the engine itself ({@link org.overloadcontrol.metrics.StatusJson}) and who may read it
 * ({@link org.overloadcontrol.metrics.StatusAccess}). SEDA (Welsh et al. 2001, §3.4) makes
 * introspection a design goal: an operator must see which endpoint sheds and why.
 */
package org.overloadcontrol.metrics;
