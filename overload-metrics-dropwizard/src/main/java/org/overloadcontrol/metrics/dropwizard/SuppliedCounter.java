package org.overloadcontrol.metrics.dropwizard;

import com.codahale.metrics.Counter;
import java.util.function.LongSupplier;

/**
 * A Dropwizard {@link Counter} whose count is one the engine keeps: reporters, the JMX reporter
 * ({@code type=counters}, attribute {@code Count}) and bridges such as Prometheus's
 * {@code DropwizardExports} (a {@code _total} counter) see a count as a count, not as a gauge,
 * as Micrometer's {@code FunctionCounter} does. Dropwizard's own {@code Counter} adds up what it
 * is told; the engine's counts exist already, so this one only reads them and refuses to be
 * moved.
 */
final class SuppliedCounter extends Counter {

  private final LongSupplier count;

  SuppliedCounter(LongSupplier count) {
    this.count = count;
  }

  @Override
  public long getCount() {
    return count.getAsLong();
  }

  @Override
  public void inc(long n) {
    throw new UnsupportedOperationException("the engine keeps this count");
  }

  @Override
  public void dec(long n) {
    throw new UnsupportedOperationException("the engine keeps this count");
  }
}
