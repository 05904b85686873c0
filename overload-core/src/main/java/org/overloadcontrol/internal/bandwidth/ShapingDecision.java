package org.overloadcontrol.internal.bandwidth;

import java.util.Objects;
import org.overloadcontrol.internal.engine.Answer;

/**
 * What bandwidth shaping says about one request: run it now, hold it for
 * {@link #delayNanos()} first (the adapter suspends it on a timer, never a sleeping thread), or
 * refuse it with {@link #status()} and {@link #retryAfterNanos()}.
 *
 * @param kind the verdict
 * @param delayNanos how long to hold a delayed request; 0 otherwise
 * @param status the HTTP status of a refusal (429: the group is over its share; 403: the group
 *     has a 0 % share); 0 otherwise
 * @param retryAfterNanos when a refused client may try again; 0 for none (a 0 % group)
 * @param reason a short machine-readable reason of a refusal, else null
 * @param ticket what the adapter reports back through; {@link BandwidthTicket#NONE} if refused
 */
public record ShapingDecision(
    Kind kind,
    long delayNanos,
    int status,
    long retryAfterNanos,
    String reason,
    BandwidthTicket ticket) {

  /** The three verdicts. */
  public enum Kind {
    ADMIT,
    DELAY,
    REJECT
  }

  /** Reason of a 429: the group has its standby limit of delayed requests already. */
  public static final String STANDBY_FULL = "bandwidth-standby-full";

  /** Reason of a 429: the delay the share asks for is longer than {@code maxDelay}. */
  public static final String DELAY_TOO_LONG = "bandwidth-delay-too-long";

  /** Reason of a 403: the group's share is 0 %. */
  public static final String ZERO_SHARE = "bandwidth-zero-share";

  public ShapingDecision {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(ticket, "ticket");
  }

  static ShapingDecision admit(BandwidthTicket ticket) {
    return new ShapingDecision(Kind.ADMIT, 0, 0, 0, null, ticket);
  }

  static ShapingDecision delay(long delayNanos, BandwidthTicket ticket) {
    return new ShapingDecision(Kind.DELAY, delayNanos, 0, 0, null, ticket);
  }

  static ShapingDecision reject(int status, long retryAfterNanos, String reason) {
    return new ShapingDecision(
        Kind.REJECT, 0, status, retryAfterNanos, reason, BandwidthTicket.NONE);
  }

  /**
   * The answer to this refusal, the same for every adapter: 429 with {@code Retry-After} when
   * the group is over its share, 403 for a group with a 0 % share; an HTML page for browsers,
   * {@code application/problem+json} for the rest.
   *
   * @param accept the request's {@code Accept} header, or null
   * @param instance the request URI
   * @throws IllegalArgumentException if this is not a refusal
   */
  public Answer rejection(String accept, String instance) {
    if (kind != Kind.REJECT) {
      throw new IllegalArgumentException("not a refusal: " + kind);
    }
    if (status == Answer.FORBIDDEN) {
      return Answer.forbidden(accept, instance, reason);
    }
    return Answer.tooManyRequests(
        accept, instance, reason, Answer.retryAfterSeconds(retryAfterNanos));
  }

  /** The decision for a request no group claims: run it, measure nothing. */
  public static ShapingDecision unshaped() {
    return admit(BandwidthTicket.NONE);
  }
}
