package org.overloadcontrol.internal.queue;

import java.util.function.DoubleSupplier;
import org.overloadcontrol.queue.QueueListener;

/**
 * Switches browsing queues between FIFO and LIFO with hysteresis: Algorithm 1's SET_DISCIPLINE
 * (Singhmar et al. 2004). Each window yields one signal; above the upper threshold a FIFO switch
 * goes LIFO; a LIFO switch goes back to FIFO only after {@code queue.overload.dwell} windows in
 * a row below the lower threshold.
 *
 * <p>Two signals. CPU: the paper's utilisation over the window (0.99 up, 0.95 down). Queue delay
 * (the default, since a servlet container is often bound by a database or a pool rather than
 * the CPU), time-averaged over the window rather than read at one instant:
 * <ul>
 *   <li>FIFO to LIFO when the smallest wait of any request that left a queue in the window
 *       exceeds {@code enterDelay} (a delay every queued request suffered, as CoDel reads a
 *       standing queue; a window in which nobody left although some waited counts the oldest
 *       waiter's age), or when some request waited during at least {@code enterShare} of the
 *       window: short deadlines (a concurrency limit's waiters give up after half their
 *       target) cap every wait below {@code enterDelay}, and a queue that never empties is
 *       the overload either way;</li>
 *   <li>LIFO to FIFO when, for {@code dwell} windows in a row, the longest wait seen in the
 *       window (of requests that left it, and the oldest waiter's age at its end) stayed under
 *       {@code exitDelay} and the queue was empty for more than 1 − {@code enterShare} of it.
 *       Served newest first, the requests that leave wait little even behind a standing
 *       queue, so neither their waits nor one reading of the oldest age (taken as a window
 *       closes inside a drain, just after a permit freed, it was often 0) shows the backlog:
 *       the switch flapped under bursty spikes.</li>
 * </ul>
 *
 * <p>Not thread-safe: called under the {@link WaitQueues} lock.
 */
final class BrowsingOrderSwitch {

  private final QueueOrder order;
  private final QueueSettings.Signal signal;
  private final double upper;
  private final double lower;
  private final double enterShare;
  private final int dwell;
  private final long windowNanos;
  private final DoubleSupplier cpu;
  private final QueueListener listener;
  private long windowStart;
  private long minWait = Long.MAX_VALUE;
  private long maxWait;

  /** Time in the window during which some request waited, up to {@link #changedAt}. */
  private long nonEmptyNanos;

  private long changedAt;
  private boolean nonEmpty;
  private int quietWindows;
  private volatile boolean lifo;

  BrowsingOrderSwitch(
      QueueSettings settings, DoubleSupplier cpu, QueueListener listener, long now) {
    this.order = settings.order();
    this.signal = settings.signal();
    this.upper =
        signal == QueueSettings.Signal.CPU ? settings.cpuUpper() : settings.enterDelayNanos();
    this.lower =
        signal == QueueSettings.Signal.CPU ? settings.cpuLower() : settings.exitDelayNanos();
    this.enterShare = settings.enterShare();
    this.dwell = settings.dwell();
    this.windowNanos = settings.windowNanos();
    this.cpu = cpu;
    this.listener = listener;
    this.windowStart = now;
    this.changedAt = now;
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
    if (waitedNanos > maxWait) {
      maxWait = waitedNanos;
    }
  }

  /** Whether any request waits, after a request joined or left a queue at {@code now}. */
  void onWaiting(long now, boolean anyWaiting) {
    if (anyWaiting != nonEmpty) {
      if (nonEmpty) {
        nonEmptyNanos += now - changedAt;
      }
      changedAt = now;
      nonEmpty = anyWaiting;
    }
  }

  /** Closes every window that has ended by {@code now} and applies the switch. */
  void roll(long now, boolean anyWaiting, long oldestEnqueuedNanos) {
    if (order != QueueOrder.LIFO_AT_OVERLOAD || now - windowStart < windowNanos) {
      return;
    }
    onWaiting(now, anyWaiting);
    long oldestAge = anyWaiting ? now - oldestEnqueuedNanos : 0L;
    double share = nonEmpty ? 1.0 : 0.0;
    long length = now - windowStart;
    if (length > 0) {
      share = (nonEmptyNanos + (nonEmpty ? now - changedAt : 0L)) / (double) length;
    }
    double value;
    String unit;
    boolean high;
    boolean low;
    if (signal == QueueSettings.Signal.CPU) {
      value = cpu.getAsDouble();
      unit = "cpu";
      high = value > upper;
      low = value < lower;
    } else {
      long entering = minWait != Long.MAX_VALUE ? minWait : oldestAge;
      long longest = Math.max(maxWait, oldestAge);
      value = lifo ? longest : entering;
      unit = "ns";
      high = entering > upper || share >= enterShare;
      low = longest < lower && share < enterShare;
    }
    minWait = Long.MAX_VALUE;
    maxWait = 0L;
    nonEmptyNanos = 0L;
    changedAt = now;
    windowStart = now;
    if (!lifo) {
      if (high) {
        lifo = true;
        quietWindows = 0;
        listener.onOrderChange(true, value, unit);
      }
      return;
    }
    quietWindows = low ? quietWindows + 1 : 0;
    if (quietWindows >= dwell) {
      lifo = false;
      quietWindows = 0;
      listener.onOrderChange(false, value, unit);
    }
  }
}
