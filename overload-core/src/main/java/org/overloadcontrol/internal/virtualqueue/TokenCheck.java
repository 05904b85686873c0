package org.overloadcontrol.internal.virtualqueue;

/**
 * The result of checking a token: admitted, or refused with a reason and, for an early token,
 * the seconds until its slot.
 */
record TokenCheck(VirtualQueueRejection rejection, long retryAfterSeconds) {

  static final TokenCheck ADMITTED = new TokenCheck(null, 0);

  static TokenCheck rejected(VirtualQueueRejection reason) {
    return new TokenCheck(reason, 0);
  }

  boolean admitted() {
    return rejection == null;
  }
}
