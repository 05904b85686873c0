package org.overloadcontrol.base;

/**
 * The one source of time for the engine: a monotonic nanosecond reading.
 *
 * <p>Every controller, bucket and timer reads time through a {@code Ticker} so that tests drive
 * them with a fake clock and no sleeps. Only differences between two readings have meaning.
 */
@FunctionalInterface
public interface Ticker {

  /** Returns the number of nanoseconds elapsed since a fixed, arbitrary origin. */
  long read();

  /** Returns the ticker backed by {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
