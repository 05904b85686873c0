/**
 * The capacity estimate: the fixed or passively measured rate the server completes requests at,
 * from which the virtual queue hands out slots.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.capacity;
