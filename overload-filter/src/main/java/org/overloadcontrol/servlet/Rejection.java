package org.overloadcontrol.servlet;

import java.time.Duration;

/**
 * Why and for how long a request was refused, handed to a {@link RejectionHandler}.
 *
 * @param endpoint the endpoint the request was routed to
 * @param requestClass the request's class
 * @param reason a short machine-readable reason, e.g. {@code "admission-rate"}
 * @param retryAfter when the client may try again (at least one second)
 */
public record Rejection(String endpoint, String requestClass, String reason, Duration retryAfter) {

  /** The reason given when the endpoint's token bucket had no token for the request's class. */
  public static final String ADMISSION_RATE = "admission-rate";

  /** {@link #retryAfter()} in whole seconds, rounded up, at least 1: the Retry-After value. */
  public long retryAfterSeconds() {
    return org.overloadcontrol.engine.Answer.retryAfterSeconds(retryAfter.toNanos());
  }
}
