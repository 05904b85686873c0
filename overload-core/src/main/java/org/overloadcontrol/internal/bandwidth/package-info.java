/**
 * Bandwidth shares: client groups, their measured rates and the shaper that delays or refuses a
 * group over its share while the server is saturated.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.bandwidth;
