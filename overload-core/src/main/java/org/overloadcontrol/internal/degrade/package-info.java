/**
 * Degradation: each endpoint's quality level, the controller that moves it and the switch that
 * turns admission on and off.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.degrade;
