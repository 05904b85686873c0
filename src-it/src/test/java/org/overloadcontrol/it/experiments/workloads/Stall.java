package org.overloadcontrol.it.experiments.workloads;

import java.util.concurrent.locks.LockSupport;

/**
 * The workload servers' stall: until a set moment every request's work waits, as it would
 * behind a stop-the-world pause or a stuck downstream. The work servlets come from the class
 * path both the server's main and the web application's class loader share, so one static
 * moment reaches them all.
 */
final class Stall {

  /**
   * {@link System#nanoTime()} until which work waits; in the past when there is no stall. Not
   * {@code Long.MIN_VALUE}: nano times are compared by their difference, which would overflow.
   */
  private static volatile long untilNanos = System.nanoTime();

  private Stall() {}

  /** Every request working or arriving in the next {@code millis} waits until they end. */
  static void start(long millis) {
    untilNanos = System.nanoTime() + millis * 1_000_000L;
  }

  /** Waits out a stall under way, if any. */
  static void awaitEnd() {
    long remaining;
    while ((remaining = untilNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(remaining);
    }
  }
}
