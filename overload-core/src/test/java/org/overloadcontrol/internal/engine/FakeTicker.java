package org.overloadcontrol.internal.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.overloadcontrol.base.Ticker;

/**
 * The one ticker every test tree moves by hand (published in overload-core's test jar): the
 * engine's time stands still until a test advances it, so no test sleeps for the engine's
 * sake. Safe to read and move from several threads.
 */
public final class FakeTicker implements Ticker {

  private final AtomicLong nanos;

  /** Starts at an arbitrary non-zero origin: only differences between readings have meaning. */
  public FakeTicker() {
    this(1_000_000_000_000L);
  }

  /** Starts at {@code nanos}, for a test whose arithmetic reads the clock from a known origin. */
  public FakeTicker(long nanos) {
    this.nanos = new AtomicLong(nanos);
  }

  /** Returns the current reading; it changes only when a test moves it. */
  @Override
  public long read() {
    return nanos.get();
  }

  /** Moves the clock on by {@code d}; returns this ticker, so a test can read it at once. */
  public FakeTicker advance(Duration d) {
    nanos.addAndGet(d.toNanos());
    return this;
  }

  /** Moves the clock on by {@code n} nanoseconds; returns this ticker. */
  public FakeTicker advanceNanos(long n) {
    nanos.addAndGet(n);
    return this;
  }

  /** Sets the reading to {@code n}, for a test or simulation that jumps to a known time. */
  public void setNanos(long n) {
    nanos.set(n);
  }
}
