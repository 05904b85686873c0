package org.overloadcontrol.internal.engine;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.base.Scheduler;

/**
 * The production {@link Scheduler}: one daemon thread owned by an adapter and stopped with it.
 * Cancelled tasks are removed at once, so deadlines of requests that were resumed early do not
 * pile up in the timer's queue. A task that throws is logged by nobody and must not kill the
 * timer, so every task runs inside a guard.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

  private final ScheduledThreadPoolExecutor executor;

  public ExecutorScheduler(String threadName) {
    executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override
  public Cancellable schedule(Runnable task, long delayNanos) {
    ScheduledFuture<?> f =
        executor.schedule(guard(task), Math.max(0L, delayNanos), TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  @Override
  public Cancellable scheduleAtFixedRate(Runnable task, long periodNanos) {
    ScheduledFuture<?> f =
        executor.scheduleAtFixedRate(guard(task), periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  private static Runnable guard(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
      }
    };
  }

  /** Stops the thread; tasks not yet run are dropped. Waits briefly for a running task. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
