/**
 * The internal part of the ground floor: the request classes of the configuration, a request's
 * one outcome, the readings of the cores (the CPU clocks, when a utilisation counts as
 * saturated), and the per-thread stripes that keep request threads' writes apart. Any package
 * may use it; it uses no other package of the project but the published ground floor.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.base;
