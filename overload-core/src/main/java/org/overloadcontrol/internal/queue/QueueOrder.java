package org.overloadcontrol.internal.queue;

/**
 * The order in which a browsing queue serves its waiters. Transaction queues are always FIFO
 * (Singhmar et al. 2004, §2.2).
 */
public enum QueueOrder {
  /** Oldest first, always (the paper's "Always-FIFO" and 8Q-AF). */
  FIFO,
  /** Newest first, always ("Always-LIFO"). */
  LIFO,
  /** FIFO normally, LIFO while the overload signal says overloaded (LIFO-Pri). */
  LIFO_AT_OVERLOAD
}
