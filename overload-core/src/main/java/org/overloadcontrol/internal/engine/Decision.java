package org.overloadcontrol.internal.engine;

/**
 * What the engine tells an adapter to do with an arriving request.
 */
public enum Decision {
  /** Run the request now (holding an execution permit when wait queues are configured). */
  ADMIT,
  /**
   * Admitted, but no execution permit is free: suspend the request, then call
   * {@link OverloadEngine#enqueue}.
   */
  WAIT,
  /** Answer 503 with Retry-After; see {@link RequestTag#retryAfterNanos()}. */
  REJECT
}
