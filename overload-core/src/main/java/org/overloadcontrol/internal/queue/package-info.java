/**
 * Wait queues: each endpoint's execution permits, the per-class queues and LIFO-Pri's order of who
 * resumes.
 *
 * <p>Not API: this package is internal to overload-control, public only so that the project's own
 * modules can use it. It carries no compatibility promise and may change in any release;
 * applications use the published types instead.
 */
package org.overloadcontrol.internal.queue;
