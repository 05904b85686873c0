package org.overloadcontrol.internal.capacity;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts arrivals, completions and response times per request type over fixed epochs (WebQ
 * §IV-B, τ = 10 s) and hands each finished epoch to a sink. Epochs are closed lazily, by the
 * first call that sees the epoch's end; an idle stretch produces no samples (empty epochs carry
 * no information about the power ratio).
 *
 * <p>Concurrency: writers add to {@link LongAdder}s of the current epoch without locking. When
 * an epoch ends, threads race to install its successor with a CAS on {@link #current}; only the
 * winner emits the finished epoch, so no epoch is emitted twice. A writer that fetched the old
 * epoch just before the swap may add its count to it after it was emitted; that count is lost,
 * a negligible error in a 10 s average.
 */
final class EpochRecorder {

  private final long epochNanos;
  private final Consumer<EpochSample> sink;
  private final AtomicReference<Epoch> current;

  EpochRecorder(long epochNanos, long nowNanos, Consumer<EpochSample> sink) {
    if (epochNanos <= 0) {
      throw new IllegalArgumentException("epochNanos must be positive: " + epochNanos);
    }
    this.epochNanos = epochNanos;
    this.sink = sink;
    this.current = new AtomicReference<>(new Epoch(nowNanos));
  }

  void arrived(String type, long nowNanos) {
    epoch(nowNanos).type(type).arrivals.increment();
  }

  void completed(String type, long responseNanos, long nowNanos) {
    Counters c = epoch(nowNanos).type(type);
    c.completions.increment();
    c.responseSeconds.add(responseNanos / 1e9);
  }

  /** Closes the epoch if it has ended; called by every recording call. */
  void roll(long nowNanos) {
    epoch(nowNanos);
  }

  private Epoch epoch(long nowNanos) {
    while (true) {
      Epoch e = current.get();
      long elapsed = nowNanos - e.startNanos;
      if (elapsed < epochNanos) {
        return e;
      }
      Epoch next = new Epoch(e.startNanos + (elapsed / epochNanos) * epochNanos);
      // Race: several threads see the end of e; only the CAS winner emits it.
      if (current.compareAndSet(e, next)) {
        EpochSample sample = e.sample(epochNanos / 1e9);
        if (sample.arrivals() > 0 || sample.completions() > 0) {
          sink.accept(sample);
        }
        return next;
      }
    }
  }

  private static final class Counters {
    final LongAdder arrivals = new LongAdder();
    final LongAdder completions = new LongAdder();
    final DoubleAdder responseSeconds = new DoubleAdder();
  }

  private static final class Epoch {
    final long startNanos;
    final ConcurrentHashMap<String, Counters> types = new ConcurrentHashMap<>();

    Epoch(long startNanos) {
      this.startNanos = startNanos;
    }

    Counters type(String type) {
      return types.computeIfAbsent(type, t -> new Counters());
    }

    EpochSample sample(double seconds) {
      Map<String, EpochSample.TypeCounts> counts = new LinkedHashMap<>();
      types.forEach(
          (type, c) ->
              counts.put(
                  type,
                  new EpochSample.TypeCounts(
                      c.arrivals.sum(), c.completions.sum(), c.responseSeconds.sum())));
      return new EpochSample(seconds, counts);
    }
  }
}
