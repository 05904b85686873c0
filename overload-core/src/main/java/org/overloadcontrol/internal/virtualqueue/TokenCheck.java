package org.overloadcontrol.internal.virtualqueue;

/**
 * The result of checking a token: admitted, or refused with a reason and, for an early token,
 * the seconds until its slot.
 */
record TokenCheck(VirtualQueueRefusal refusal, long retryAfterSeconds) {

  static final TokenCheck ADMITTED = new TokenCheck(null, 0);

  static TokenCheck refused(VirtualQueueRefusal reason) {
    return new TokenCheck(reason, 0);
  }

  boolean admitted() {
    return refusal == null;
  }
}
