package org.overloadcontrol.it.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Counts what a load run did, thread-safely, as the responses arrive on the client's threads:
 * per request type the attempts generated, completed, timed out, rejected, failed and (for
 * abandoned sessions) not generated; the response times of completed requests; and, per time
 * bucket, the same counts and a histogram, for the time series. {@link #snapshot} freezes it.
 */
public final class RunRecorder {

  private final long startNanos;
  private final long bucketNanos;
  private final Map<ShopRequest, LongAdder[]> counts = new EnumMap<>(ShopRequest.class);
  private final Map<ShopRequest, LongAdder> notGenerated = new EnumMap<>(ShopRequest.class);
  private final Map<ShopRequest, Histogram> latency = new EnumMap<>(ShopRequest.class);
  private final Map<String, ConcurrentHistogram> groupLatency = new ConcurrentHashMap<>();
  private final Map<String, LongAdder[]> groupCounts = new ConcurrentHashMap<>();
  private final Map<Integer, Bucket> buckets = new ConcurrentHashMap<>();
  private final Map<String, Map<Integer, Bucket>> groupBuckets = new ConcurrentHashMap<>();
  private final LongAdder sessionsStarted = new LongAdder();
  private final LongAdder sessionsAbandoned = new LongAdder();
  private final LongAdder purchases = new LongAdder();
  private final LongAdder purchasesWithoutRefusal = new LongAdder();
  private final LongAdder buyers = new LongAdder();
  private final LongAdder sessionsRefusedAtEntry = new LongAdder();
  private final LongAdder sessionsRefusedMidSession = new LongAdder();
  private final Map<String, LongAdder> buyersLost = new ConcurrentHashMap<>();
  private final List<GaugeSample> gauges = new ArrayList<>();
  private final java.util.concurrent.atomic.LongAccumulator lagMaxNanos =
      new java.util.concurrent.atomic.LongAccumulator(Math::max, 0L);

  /** One time bucket of the series. */
  static final class Bucket {
    final LongAdder generated = new LongAdder();
    final LongAdder completed = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder timedOut = new LongAdder();
    final LongAdder purchases = new LongAdder();
    final Histogram latency = new ConcurrentHistogram(3);
  }

  /** What {@link EngineGauge} read at one time. */
  public record GaugeSample(
      double seconds, double admissionRate, double queueLength, double lifo, double quality) {}

  public RunRecorder(long startNanos, Duration bucket) {
    this.startNanos = startNanos;
    this.bucketNanos = bucket.toNanos();
    for (ShopRequest r : ShopRequest.values()) {
      LongAdder[] a = new LongAdder[Outcome.values().length + 1];
      for (int i = 0; i < a.length; i++) {
        a[i] = new LongAdder();
      }
      counts.put(r, a);
      notGenerated.put(r, new LongAdder());
      latency.put(r, new ConcurrentHistogram(3));
    }
  }

  public long startNanos() {
    return startNanos;
  }

  /** An attempt was sent at {@code nowNanos}. */
  public void generated(ShopRequest type, long nowNanos) {
    counts.get(type)[Outcome.values().length].increment();
    bucket(nowNanos).generated.increment();
  }

  /**
   * An attempt ended at {@code nowNanos}; {@code latencyNanos} counts for completed ones.
   * {@code group} (may be null) also files it under a user group, e.g. a user class.
   */
  public void ended(
      ShopRequest type, String group, Outcome outcome, long latencyNanos, long nowNanos) {
    counts.get(type)[outcome.ordinal()].increment();
    if (group != null) {
      groupCounts.computeIfAbsent(group, g -> newAdders())[outcome.ordinal()].increment();
    }
    Bucket b = bucket(nowNanos);
    if (group != null) {
      Bucket gb =
          groupBuckets
              .computeIfAbsent(group, g -> new ConcurrentHashMap<>())
              .computeIfAbsent(index(nowNanos), i -> new Bucket());
      switch (outcome) {
        case COMPLETED -> {
          gb.completed.increment();
          gb.latency.recordValue(Math.max(1, latencyNanos / 1000));
        }
        case REJECTED -> gb.rejected.increment();
        case TIMED_OUT -> gb.timedOut.increment();
        default -> {}
      }
    }
    switch (outcome) {
      case COMPLETED -> {
        long micros = Math.max(1, latencyNanos / 1000);
        latency.get(type).recordValue(micros);
        b.latency.recordValue(micros);
        b.completed.increment();
        if (group != null) {
          groupLatency.computeIfAbsent(group, g -> new ConcurrentHistogram(3)).recordValue(micros);
        }
        if (type == ShopRequest.CONFIRM) {
          purchases.increment();
        }
      }
      case REJECTED -> b.rejected.increment();
      case TIMED_OUT -> b.timedOut.increment();
      default -> {}
    }
  }

  /** An abandoned session would have asked for {@code type} next. */
  public void notGenerated(ShopRequest type) {
    notGenerated.get(type).increment();
  }

  /** The generator sent something {@code lagNanos} later than scheduled. */
  public void lag(long lagNanos) {
    lagMaxNanos.accumulate(lagNanos);
  }

  /**
   * A session's walk reached the confirm page, whether it asked for it or had left before: a
   * purchase a guard that refused nobody and kept every page in time could have had.
   */
  public void buyer() {
    buyers.increment();
  }

  /**
   * A buyer (a session whose walk reached confirm) left without buying, for {@code reason}:
   * where a guard loses its purchases.
   */
  public void buyerLost(String reason) {
    buyersLost.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  public void sessionStarted() {
    sessionsStarted.increment();
  }

  public void sessionAbandoned() {
    sessionsAbandoned.increment();
  }

  /**
   * A confirm completed, at {@code nowNanos}, in a session that met no refusal before it: a
   * purchase a user who leaves at the first refusal would have made.
   */
  public void purchaseWithoutRefusal(long nowNanos) {
    purchasesWithoutRefusal.increment();
    bucket(nowNanos).purchases.increment();
  }

  /**
   * A session met its first refusal: on its first request ({@code midSession} false), where
   * nothing is lost yet, or after a page of it had been served.
   */
  public void sessionRefused(boolean midSession) {
    (midSession ? sessionsRefusedMidSession : sessionsRefusedAtEntry).increment();
  }

  /** Records one reading of the server's state. */
  public synchronized void gauge(long nowNanos, EngineGauge.Reading reading) {
    gauges.add(
        new GaugeSample(
            (nowNanos - startNanos) / 1e9,
            reading.admissionRate(),
            reading.queueLength(),
            reading.lifo() ? 1 : 0,
            reading.quality()));
  }

  private Bucket bucket(long nowNanos) {
    return buckets.computeIfAbsent(index(nowNanos), i -> new Bucket());
  }

  private int index(long nowNanos) {
    return (int) Math.max(0, (nowNanos - startNanos) / bucketNanos);
  }

  private List<RunResult.SeriesPoint> series(Map<Integer, Bucket> source) {
    int last = source.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
    List<RunResult.SeriesPoint> series = new ArrayList<>();
    for (int i = 0; i <= last; i++) {
      Bucket b = source.get(i);
      double t = (i + 1) * bucketNanos / 1e9;
      if (b == null) {
        series.add(new RunResult.SeriesPoint(t, 0, 0, 0, 0, 0, Double.NaN));
        continue;
      }
      double p90 =
          b.latency.getTotalCount() == 0 ? Double.NaN : b.latency.getValueAtPercentile(90) / 1000.0;
      series.add(
          new RunResult.SeriesPoint(
              t,
              b.generated.sum(),
              b.completed.sum(),
              b.rejected.sum(),
              b.timedOut.sum(),
              b.purchases.sum(),
              p90));
    }
    return series;
  }

  private Map<String, Long> lost() {
    Map<String, Long> m = new java.util.TreeMap<>();
    buyersLost.forEach((reason, n) -> m.put(reason, n.sum()));
    return Map.copyOf(m);
  }

  private static LongAdder[] newAdders() {
    LongAdder[] a = new LongAdder[Outcome.values().length];
    for (int i = 0; i < a.length; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  /** The run so far, frozen. */
  public synchronized RunResult snapshot(Duration elapsed) {
    Map<ShopRequest, RunResult.TypeCounts> types = new EnumMap<>(ShopRequest.class);
    for (ShopRequest r : ShopRequest.values()) {
      LongAdder[] a = counts.get(r);
      types.put(
          r,
          new RunResult.TypeCounts(
              a[Outcome.values().length].sum(),
              a[Outcome.COMPLETED.ordinal()].sum(),
              a[Outcome.TIMED_OUT.ordinal()].sum(),
              a[Outcome.REJECTED.ordinal()].sum(),
              a[Outcome.FAILED.ordinal()].sum(),
              notGenerated.get(r).sum(),
              latency.get(r).copy()));
    }
    Map<String, RunResult.TypeCounts> groups = new java.util.TreeMap<>();
    groupCounts.forEach(
        (g, a) -> {
          long total = 0;
          for (LongAdder x : a) {
            total += x.sum();
          }
          Histogram h = groupLatency.containsKey(g) ? groupLatency.get(g).copy() : new Histogram(3);
          groups.put(
              g,
              new RunResult.TypeCounts(
                  total,
                  a[Outcome.COMPLETED.ordinal()].sum(),
                  a[Outcome.TIMED_OUT.ordinal()].sum(),
                  a[Outcome.REJECTED.ordinal()].sum(),
                  a[Outcome.FAILED.ordinal()].sum(),
                  0,
                  h));
        });
    Map<String, List<RunResult.SeriesPoint>> perGroup = new java.util.TreeMap<>();
    groupBuckets.forEach((g, b) -> perGroup.put(g, series(b)));
    return new RunResult(
        elapsed,
        bucketNanos / 1e9,
        types,
        groups,
        series(buckets),
        perGroup,
        List.copyOf(gauges),
        sessionsStarted.sum(),
        sessionsAbandoned.sum(),
        purchases.sum(),
        purchasesWithoutRefusal.sum(),
        buyers.sum(),
        sessionsRefusedAtEntry.sum(),
        sessionsRefusedMidSession.sum(),
        lost(),
        lagMaxNanos.get() / 1e6);
  }
}
