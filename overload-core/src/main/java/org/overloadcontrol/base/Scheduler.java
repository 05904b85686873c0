package org.overloadcontrol.base;

/**
 * Timers for the engine, provided by the adapter (the filter owns one scheduler thread, stopped
 * with it); tests pass a fake that fires tasks by hand. Delays are in the {@link Ticker}'s
 * nanoseconds.
 */
public interface Scheduler {

  /** Runs {@code task} once after {@code delayNanos}. */
  Cancellable schedule(Runnable task, long delayNanos);

  /** Runs {@code task} every {@code periodNanos} until cancelled. */
  Cancellable scheduleAtFixedRate(Runnable task, long periodNanos);

  /** A scheduled task that can be called off; cancelling twice, or after it ran, is harmless. */
  @FunctionalInterface
  interface Cancellable {
    void cancel();
  }
}
