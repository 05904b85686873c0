package org.overloadcontrol.internal.base;

/**
 * How a request ended. Every request ends in exactly one outcome.
 */
public enum Outcome {
  /** The application produced a response. */
  COMPLETED,
  /** Refused at admission: 503 with Retry-After. */
  REJECTED,
  /** Waited past its deadline and was answered with 503 instead of being served to nobody. */
  EXPIRED,
  /** Sent to the virtual queue with a wait time. */
  REDIRECTED,
  /** The application threw. */
  FAILED;

  /** Whether the application ran for this request, so its response time is a sample. */
  public boolean executed() {
    return this == COMPLETED || this == FAILED;
  }
}
