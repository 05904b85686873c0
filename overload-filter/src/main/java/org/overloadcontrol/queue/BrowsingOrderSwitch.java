package org.overloadcontrol.queue;

import java.util.function.DoubleSupplier;

/**
 * Switches browsing queues between FIFO and LIFO with hysteresis: Algorithm 1's SET_DISCIPLINE
 * (Singhmar et al. 2004). Each window yields one signal value; above the upper threshold a FIFO
 * switch goes LIFO, below the lower threshold a LIFO switch goes FIFO, in between nothing moves.
 *
 * <p>Two signals. CPU: the paper's utilisation over the window (0.99 up, 0.95 down). Queue delay
 * (the default, since a servlet container is often bound by a database or a pool rather than
 * the CPU): the smallest wait of any request that left a queue in the window, i.e. a delay that
 * every queued request suffered, as CoDel reads a standing queue. A window in which nobody left
 * although some waited counts the oldest waiter's age; an empty window counts zero. While LIFO,
 * the signal is the oldest waiter's age at the window's end (zero when none waits): newest-first
 * service hands fresh arrivals a short wait even behind a standing queue.
 *
 * <p>Not thread-safe: called under the {@link WaitQueues} lock.
 */
final class BrowsingOrderSwitch {

  private final QueueOrder order;
  private final QueueSettings.Signal signal;
  private final double upper;
  private final double lower;
  private final long windowNanos;
  private final DoubleSupplier cpu;
  private final QueueListener listener;
  private long windowStart;
  private long minWait = Long.MAX_VALUE;
  private volatile boolean lifo;

  BrowsingOrderSwitch(QueueSettings settings, DoubleSupplier cpu, QueueListener listener,
      long now) {
    this.order = settings.order();
    this.signal = settings.signal();
    this.upper = signal == QueueSettings.Signal.CPU ? settings.cpuUpper()
        : settings.enterDelayNanos();
    this.lower = signal == QueueSettings.Signal.CPU ? settings.cpuLower()
        : settings.exitDelayNanos();
    this.windowNanos = settings.windowNanos();
    this.cpu = cpu;
    this.listener = listener;
    this.windowStart = now;
    this.lifo = order == QueueOrder.LIFO;
  }

  /** Whether browsing queues are served newest first now. */
  boolean lifo() {
    return lifo;
  }

  void onLeave(long waitedNanos) {
    if (waitedNanos < minWait) {
      minWait = waitedNanos;
    }
  }

  /** Closes every window that has ended by {@code now} and applies the switch. */
  void roll(long now, boolean anyWaiting, long oldestEnqueuedNanos) {
    if (order != QueueOrder.LIFO_AT_OVERLOAD || now - windowStart < windowNanos) {
      return;
    }
    double value;
    String unit;
    if (signal == QueueSettings.Signal.CPU) {
      value = cpu.getAsDouble();
      unit = "cpu";
    } else {
      long v;
      if (lifo) {
        // Served newest first, the requests that leave waited little even behind a standing
        // queue, so their smallest wait would switch back to FIFO at once; the age of the
        // oldest waiter shows whether the backlog is gone.
        v = anyWaiting ? now - oldestEnqueuedNanos : 0L;
      } else {
        v = minWait != Long.MAX_VALUE ? minWait : anyWaiting ? now - oldestEnqueuedNanos : 0L;
      }
      value = v;
      unit = "ns";
    }
    minWait = Long.MAX_VALUE;
    windowStart = now;
    if (!lifo && value > upper) {
      lifo = true;
      listener.onOrderChange(true, value, unit);
    } else if (lifo && value < lower) {
      lifo = false;
      listener.onOrderChange(false, value, unit);
    }
  }
}
