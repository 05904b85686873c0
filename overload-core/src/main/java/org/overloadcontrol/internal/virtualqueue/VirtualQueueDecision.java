package org.overloadcontrol.internal.virtualqueue;

/**
 * What the virtual queue decided for one arriving request: {@link Pass} (go on to the server),
 * {@link Wait} (come back with this token after this many seconds) or {@link Reject}.
 */
public sealed interface VirtualQueueDecision {

  /** The request may go on; {@code byToken} when it presented a valid token. */
  record Pass(boolean byToken) implements VirtualQueueDecision {}

  /**
   * The request must wait {@code waitSeconds} and come back with {@code token};
   * {@code position} requests (this one included) are scheduled up to its slot.
   */
  record Wait(String token, int waitSeconds, long position) implements VirtualQueueDecision {}

  /**
   * The request is refused; {@code retryAfterSeconds} is when trying again makes sense (the
   * remaining wait of an early token, the maximum wait when the queue is full, else 0).
   */
  record Reject(VirtualQueueRejection reason, long retryAfterSeconds)
      implements VirtualQueueDecision {}
}
