package org.overloadcontrol.virtualqueue;

import java.util.concurrent.atomic.AtomicLong;
import org.overloadcontrol.base.Ticker;

/** A ticker the test advances by hand. */
final class FakeTicker implements Ticker {

  private final AtomicLong nanos = new AtomicLong(123_456_789L);

  @Override
  public long read() {
    return nanos.get();
  }

  void advanceSeconds(double seconds) {
    nanos.addAndGet((long) (seconds * 1e9));
  }
}
