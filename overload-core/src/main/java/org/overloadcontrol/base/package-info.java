/**
 * The ground floor: the few words every feature shares, and nothing else. Time
 * ({@link org.overloadcontrol.base.Ticker}), timers ({@link org.overloadcontrol.base.Scheduler}),
 * the request classes of the configuration ({@link org.overloadcontrol.base.ClassDefinition},
 * {@link org.overloadcontrol.base.RequestKind}) and a request's one
 * {@link org.overloadcontrol.base.Outcome}. Any package may use it; it uses no other package of
 * the project, which keeps the packages free of cycles (a test enforces it): admission, queues,
 * classification and configuration meet here instead of in the engine that ties them together.
 */
package org.overloadcontrol.base;
