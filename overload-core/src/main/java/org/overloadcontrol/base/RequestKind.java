package org.overloadcontrol.base;

/**
 * Whether a request class is part of a purchase (a transaction) or not (browsing).
 *
 * <p>LIFO-Pri (Singhmar et al. 2004, §3) gives transaction classes absolute priority over
 * browsing classes and keeps their queues FIFO; browsing queues switch to LIFO under overload.
 */
public enum RequestKind {
  BROWSING,
  TRANSACTION
}
