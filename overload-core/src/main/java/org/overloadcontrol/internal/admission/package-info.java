/**
 * Admission control: the concurrency limit, the rate controller with its token buckets and the
 * queue-threshold controller, each endpoint's and class's, behind the admission SPI of
 * org.overloadcontrol.limiter.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.admission;
