/**
 * The ground floor's published words: time ({@link org.overloadcontrol.base.Ticker}), timers
 * ({@link org.overloadcontrol.base.Scheduler}), a request class's kind ({@link
 * org.overloadcontrol.base.RequestKind}) and the library's own log ({@link
 * org.overloadcontrol.base.OverloadLog}). The rest of the ground floor (the request classes of
 * the configuration, a request's one outcome) is internal, in {@code
 * org.overloadcontrol.internal.base}. Any package may use both; they use no other package of the
 * project, which keeps the packages free of cycles (a test enforces it): admission, queues,
 * classification and configuration meet here instead of in the engine that ties them together.
 */
package org.overloadcontrol.base;
