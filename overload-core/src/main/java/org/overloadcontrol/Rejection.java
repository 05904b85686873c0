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
 * @param status the HTTP status of the default answer: 503, or 429 where the {@code
 *     rejectionStatus} key says so (by default on Tomcat, which closes the connection after every
 *     503); a handler of its own may send it too, to agree with the default
 */
public record Rejection(
    String endpoint, String requestClass, RejectionReason reason, Duration retryAfter, int status) {

  /** The status of a refusal by default: the server is overloaded. */
  public static final int SERVICE_UNAVAILABLE = 503;

  /** The status of a refusal where a 503 would cost the client its connection. */
  public static final int TOO_MANY_REQUESTS = 429;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  public Rejection {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (status != SERVICE_UNAVAILABLE && status != TOO_MANY_REQUESTS) {
      throw new IllegalArgumentException("status must be 503 or 429, not " + status);
    }
  }

  /** A refusal answered 503. */
  public Rejection(
      String endpoint, String requestClass, RejectionReason reason, Duration retryAfter) {
    this(endpoint, requestClass, reason, retryAfter, SERVICE_UNAVAILABLE);
  }

  /** {@link #retryAfter()} in whole seconds, rounded up, at least 1: the Retry-After value. */
  public long retryAfterSeconds() {
    // Rounded up: a client told to come back sooner than the bucket refills is refused again.
    long seconds = (retryAfter.toNanos() + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND;
    return Math.max(1L, seconds);
  }
}
