/**
 * The engine: a request's tag, its admission, wait and outcome, and the answers (the 503 page or
 * problem document) it renders.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.engine;
