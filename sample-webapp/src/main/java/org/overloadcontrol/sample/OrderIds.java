package org.overloadcontrol.sample;

import java.util.concurrent.atomic.AtomicLong;

/** Hands out order ids, unique within one running shop: {@code ORD-000001}, ... */
public final class OrderIds {

  private final AtomicLong last = new AtomicLong();

  /** The next id. */
  public String next() {
    return String.format(java.util.Locale.ROOT, "ORD-%06d", last.incrementAndGet());
  }
}
