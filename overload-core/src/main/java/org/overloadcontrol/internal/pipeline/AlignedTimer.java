package org.overloadcontrol.internal.pipeline;

import java.util.Objects;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.internal.virtualqueue.EpochClock;

/**
 * Runs a task whenever the wall clock reaches a multiple of a period plus an offset, so that
 * every node of a cluster whose clocks agree runs it at the same moments. The bandwidth
 * shaper's farm-wide measurement adds the other nodes' b̂ to this node's (Li &amp; Jamin §V.B,
 * summed over WebQ's replicas, Suresh et al. §III-B); with timers started whenever each node
 * started, the other nodes' b̂ was up to a manager period and an exchange older than this
 * node's when a returning group's rate was rising. Each run schedules the next one, so a late
 * run does not shift the ones after it.
 */
final class AlignedTimer implements Scheduler.Cancellable {

  private final Scheduler timers;
  private final EpochClock clock;
  private final long periodNanos;
  private final long offsetNanos;
  private final Runnable task;
  private volatile boolean cancelled;
  private volatile Scheduler.Cancellable next;

  private AlignedTimer(
      Scheduler timers, EpochClock clock, long periodNanos, long offsetNanos, Runnable task) {
    this.timers = Objects.requireNonNull(timers, "timers");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.periodNanos = periodNanos;
    this.offsetNanos = offsetNanos;
    this.task = Objects.requireNonNull(task, "task");
  }

  /** Starts running {@code task} at the wall clock's multiples of the period plus the offset. */
  static AlignedTimer start(
      Scheduler timers, EpochClock clock, long periodNanos, long offsetNanos, Runnable task) {
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("period must be positive, not " + periodNanos);
    }
    AlignedTimer timer = new AlignedTimer(timers, clock, periodNanos, offsetNanos, task);
    timer.arm();
    return timer;
  }

  private void arm() {
    if (!cancelled) {
      next =
          timers.schedule(
              this::fire, clock.nanosToBoundary(clock.nanos(), periodNanos, offsetNanos));
    }
  }

  private void fire() {
    if (cancelled) {
      return;
    }
    try {
      task.run();
    } finally {
      arm();
    }
  }

  @Override
  public void cancel() {
    cancelled = true;
    Scheduler.Cancellable n = next;
    if (n != null) {
      n.cancel();
    }
  }
}
