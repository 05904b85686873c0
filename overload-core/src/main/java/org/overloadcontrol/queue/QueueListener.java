package org.overloadcontrol.queue;

/**
 * Observes the wait queues; no-op defaults. Called on request or timer threads, sometimes
 * under the queues' lock: implementations must be quick and must not call back into the queues.
 */
public interface QueueListener {

  QueueListener NONE = new QueueListener() {};

  /** Browsing queues switched between FIFO and LIFO; {@code signal} is the value that did it. */
  default void onOrderChange(boolean lifo, double signal, String unit) {}

  /** An endpoint's permit limit moved (SEDA thread-pool analogue). */
  default void onPermitLimitChange(String endpoint, int from, int to) {}
}
