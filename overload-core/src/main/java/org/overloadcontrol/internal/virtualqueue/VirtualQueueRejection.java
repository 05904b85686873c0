package org.overloadcontrol.internal.virtualqueue;

import java.util.Locale;

/** Why the virtual queue refused a request; each is counted separately. */
public enum VirtualQueueRejection {
  /** Not a token of ours: cannot be decoded, or names a key we do not hold. */
  FORGED(true, "the queue ticket was not issued by this site"),
  /** Names a key we hold, but its signature does not match its time and wait: edited. */
  ALTERED(true, "the queue ticket has been altered"),
  /** A genuine token, presented for another URL than the one it was issued for. */
  WRONG_URL(true, "the queue ticket was issued for another page"),
  /** A genuine token for this URL, presented from another client address. */
  FOREIGN_ADDRESS(true, "the queue ticket was issued to another client"),
  /** A genuine token whose slot has not come yet. */
  EARLY(false, "your turn has not come yet"),
  /** A genuine token whose slot passed longer ago than the grace window. */
  EXPIRED(true, "the queue ticket has expired"),
  /** A genuine token that was already used within its window. */
  REPLAYED(true, "the queue ticket has already been used"),
  /** No token, and no slot within the maximum wait has room. */
  QUEUE_FULL(false, "the queue is full");

  private final boolean tokenFault;
  private final String message;

  VirtualQueueRejection(boolean tokenFault, String message) {
    this.tokenFault = tokenFault;
    this.message = message;
  }

  /** Whether the token itself is unusable (the client must join the queue again). */
  public boolean tokenFault() {
    return tokenFault;
  }

  /** A sentence for the user. */
  public String message() {
    return message;
  }

  /** The name used in metrics and JSON, e.g. {@code foreign_address}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
