package org.overloadcontrol.engine;

/**
 * What the engine tells an adapter to do with an arriving request.
 */
public enum Decision {
  /** Run the request now. */
  ADMIT,
  /** Answer 503 with Retry-After; see {@link RequestTag#retryAfterNanos()}. */
  REJECT
}
