package org.overloadcontrol.internal.engine;

import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.base.Scheduler;

/** A scheduler whose tasks run only when the test says, at the fake ticker's time. */
public final class FakeScheduler implements Scheduler {

  private final FakeTicker ticker;
  private final List<Task> tasks = new ArrayList<>();

  private static final class Task {
    long due;
    final long period;
    final Runnable body;
    boolean cancelled;

    Task(long due, long period, Runnable body) {
      this.due = due;
      this.period = period;
      this.body = body;
    }
  }

  public FakeScheduler(FakeTicker ticker) {
    this.ticker = ticker;
  }

  @Override
  public synchronized Cancellable schedule(Runnable task, long delayNanos) {
    Task t = new Task(ticker.read() + delayNanos, 0, task);
    tasks.add(t);
    return () -> t.cancelled = true;
  }

  @Override
  public synchronized Cancellable scheduleAtFixedRate(Runnable task, long periodNanos) {
    Task t = new Task(ticker.read() + periodNanos, periodNanos, task);
    tasks.add(t);
    return () -> t.cancelled = true;
  }

  /** Runs every task due by now (periodic ones once per elapsed period). */
  public void runDue() {
    for (; ; ) {
      Task next = null;
      synchronized (this) {
        long now = ticker.read();
        for (Task t : tasks) {
          if (!t.cancelled && t.due <= now && (next == null || t.due < next.due)) {
            next = t;
          }
        }
        if (next == null) {
          tasks.removeIf(t -> t.cancelled);
          return;
        }
        if (next.period > 0) {
          next.due += next.period;
        } else {
          next.cancelled = true;
        }
      }
      next.body.run();
    }
  }

  /** Scheduled one-shot tasks not yet run or cancelled. */
  public synchronized long pendingOneShots() {
    return tasks.stream().filter(t -> !t.cancelled && t.period == 0).count();
  }
}
