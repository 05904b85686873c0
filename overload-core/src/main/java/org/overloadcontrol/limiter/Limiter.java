package org.overloadcontrol.limiter;

import org.overloadcontrol.RejectionReason;

/**
 * An admission algorithm: decides each arrival of one request class at one endpoint, and
 * learns from the outcomes of the requests it admitted. The shape of Netflix
 * concurrency-limits' {@code Limiter}: {@link #acquire} returns a {@link Permit}, or nothing
 * when the request is refused, and the permit hears its request's outcome exactly once.
 *
 * <p>The built-in algorithms are named by {@code admission.controller} (or a group's
 * {@code admission.groups.<g>.controller}): {@code concurrency}, {@code rate}, and, per
 * endpoint, {@code queue.endpoints.<e>.admission: queue-threshold}. Another is one class plus
 * its registration: a {@link LimiterProvider} listed in {@code
 * META-INF/services/org.overloadcontrol.limiter.LimiterProvider}, named in the same key. The
 * built-in concurrency limit has a third answer, kept inside the engine: a request over the
 * limit may wait for a permit in the wait queues, and a release hands it over; a registered
 * algorithm admits or refuses.
 *
 * <p>Concurrency: called on request threads, concurrently and on the hot path; it must not
 * block, and should not allocate.
 */
public interface Limiter {

  /**
   * Decides one arrival.
   *
   * @param nowNanos the engine's clock when the request arrived
   * @param stripe the calling thread's slot for striped counters (a small non-negative
   *     number, the same for every call about one request): any value is correct, and a
   *     limiter that stripes its counts by it keeps threads off each other's cache lines
   * @return the request's permit, whose outcome the engine reports once; or null when the
   *     request is refused (answered 503, or 429 on Tomcat, with {@link #rejectionReason()}
   *     and {@link #retryAfterNanos})
   */
  Permit acquire(long nowNanos, int stripe);

  /**
   * Why {@link #acquire} refuses, as the refused request's reason: a provider's algorithm
   * gives {@link RejectionReason#ADMISSION_LIMIT} unless another says more.
   */
  RejectionReason rejectionReason();

  /**
   * How long a refused client should wait before it tries again; the engine bounds it by
   * {@code retryAfter.min} and {@code retryAfter.max}. The default leaves it at the minimum.
   */
  default long retryAfterNanos(long nowNanos) {
    return 0L;
  }

  /**
   * Whether {@link Permit#onSuccess} needs the response time of every request. When false, the
   * engine reads the clock only for the requests it samples anyway, and passes
   * {@link Permit#NOT_MEASURED} for the others: a clock reading is a third of the engine's
   * work per request.
   */
  default boolean needsEveryResponseTime() {
    return true;
  }
}
