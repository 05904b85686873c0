package org.overloadcontrol;

/**
 * Why overload control refused a request: the reason a refusal hook reads from its {@link
 * Rejection}, and, as its {@link #code()}, what the 503's problem document, the logs and the
 * metrics show. One value per cause, so that code which answers refusals itself can tell them
 * apart without comparing strings.
 */
public enum RejectionReason {

  /** It waited for a permit until its deadline (the wait's bound under its class's target). */
  EXPIRED("expired"),

  /**
   * Its class's wait queue was full, or already held as many as could be served within the
   * wait's bound.
   */
  QUEUE_FULL("queue-full"),

  /** The rate controller's token bucket had no token for its class. */
  ADMISSION_RATE("admission-rate"),

  /** The endpoint held its queue-threshold controller's number of requests. */
  QUEUE_THRESHOLD("queue-threshold"),

  /** An admission algorithm registered by a {@code LimiterProvider} refused it. */
  ADMISSION_LIMIT("admission-limit"),

  /** Session-aware admission refused a new session. */
  NEW_SESSION("new-session"),

  /** Session-aware admission held as many sessions as it admits. */
  SESSIONS_FULL("sessions-full"),

  /** It would have had to wait, and the chain cannot suspend ({@code queue.nonAsync: reject}). */
  NO_ASYNC("no-async"),

  /** The filter or handler stopped while it waited. */
  SHUTDOWN("shutdown"),

  /** Its client left while it waited; nobody is answered. */
  ABANDONED("abandoned");

  private final String code;

  RejectionReason(String code) {
    this.code = code;
  }

  /** The short machine-readable form, e.g. {@code queue-full}. */
  public String code() {
    return code;
  }

  @Override
  public String toString() {
    return code;
  }
}
