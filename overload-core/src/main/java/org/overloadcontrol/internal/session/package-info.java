/**
 * Session-based admission: the signed session cookie, the table of admitted sessions and the gate
 * that admits a new session while the admitted ones leave room.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.session;
