/**
 * Observability of the engine, free of servlet, Jetty and metrics-library types: the engine's
 * metrics handed to whichever metrics bindings are bound, the overload watch that logs an endpoint
 * entering and leaving overload, the status document read from the engine itself and who may read
 * it. SEDA (Welsh et al. 2001, section 3.4) makes introspection a design goal: an operator must see
 * which endpoint sheds and why.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.metrics;
