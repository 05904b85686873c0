/**
 * The cluster exchange: what a node reports and receives through a coordinator of the published
 * cluster SPI, and how the engine's parts take part.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.cluster;
