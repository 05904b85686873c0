/**
 * The adapter SPI: the request life cycle written once for every container adapter (a request view,
 * its exchange and steps, the runtime and the layered settings). The container adapters of this
 * project use it; it is not offered to other adapters.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.pipeline;
