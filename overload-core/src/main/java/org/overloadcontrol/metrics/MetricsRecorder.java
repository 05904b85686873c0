package org.overloadcontrol.metrics;

import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * One engine's metrics in one metrics library, as a {@link MetricsBinding} opened them. The
 * engine hands over readings, not events: a count or gauge is read when the library collects,
 * from counters and estimates the engine keeps anyway, so a request pays nothing for being
 * measured and no binding sits on the request path.
 */
public interface MetricsRecorder extends AutoCloseable {

  /** A recorder that records nothing: the default when no binding is on the class path. */
  MetricsRecorder NONE =
      new MetricsRecorder() {
        @Override
        public void count(MetricId id, LongSupplier count) {}

        @Override
        public void gauge(MetricId id, DoubleSupplier value) {}

        @Override
        public void close() {}
      };

  /** A count that only grows (arrivals, outcomes, refusals): a counter where the library has one. */
  void count(MetricId id, LongSupplier count);

  /** A value that goes up and down (permits in use, quality, an estimate). */
  void gauge(MetricId id, DoubleSupplier value);

  /**
   * The metrics as text for {@code /overload/metrics}, when this library writes an exposition
   * format; empty otherwise.
   */
  default Optional<Scrape> scrape() {
    return Optional.empty();
  }

  /** Removes every metric recorded here, so an application's own registry is left as it was. */
  @Override
  void close();
}
