package org.overloadcontrol.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.overloadcontrol.base.Ticker;

/** A ticker the test moves by hand. Starts at an arbitrary non-zero origin. */
public final class FakeTicker implements Ticker {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000_000L);

  @Override
  public long read() {
    return nanos.get();
  }

  public FakeTicker advance(Duration d) {
    nanos.addAndGet(d.toNanos());
    return this;
  }

  public FakeTicker advanceNanos(long n) {
    nanos.addAndGet(n);
    return this;
  }

  public void setNanos(long n) {
    nanos.set(n);
  }
}
