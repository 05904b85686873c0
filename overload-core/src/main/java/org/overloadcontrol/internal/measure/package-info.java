/**
 * Response-time measurement: each class's p90 estimate at each endpoint (Welsh &amp; Culler
 * 2003, §3.2), with the striped sample buffer and the sampling that feed it (the concurrency
 * limit keeps its windows' samples in such a buffer too). Every class has an estimate, whether
 * or not the rate controller controls it; the rate controller, the status, the metrics and the
 * overload watch read it. It uses no other package of the project but the ground floor.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.measure;
