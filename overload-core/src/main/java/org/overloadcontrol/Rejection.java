package org.overloadcontrol;

import java.time.Duration;
import java.util.Objects;

/**
 * Why and for how long overload control refused a request, as every refusal hook receives it:
 * the servlet filter's {@code RejectionHandler} and the Jetty handler's {@code reject}. A value
 * read from the engine once, when the request is refused; nothing in it reaches back into the
 * engine.
 *
 * @param endpoint the endpoint the request was routed to
 * @param requestClass the request's class
 * @param reason why
 * @param retryAfter when the client may try again
 */
public record Rejection(
    String endpoint, String requestClass, RejectionReason reason, Duration retryAfter) {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  public Rejection {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(retryAfter, "retryAfter");
  }

  /** {@link #retryAfter()} in whole seconds, rounded up, at least 1: the Retry-After value. */
  public long retryAfterSeconds() {
    // Rounded up: a client told to come back sooner than the bucket refills is refused again.
    long seconds = (retryAfter.toNanos() + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND;
    return Math.max(1L, seconds);
  }
}
