/**
 * Request classification: endpoint and class rules, path patterns, bypass paths, trusted-proxy
 * client addresses and arrival times.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.classify;
