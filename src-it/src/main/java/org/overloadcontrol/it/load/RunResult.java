package org.overloadcontrol.it.load;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The frozen outcome of one load run: LIFO-Pri Table 4's counts per request type, the response
 * times of completed requests, the time series and the server readings.
 *
 * @param elapsed how long the run lasted
 * @param bucketSeconds the width of one point of {@code series}
 * @param types the counts per request type
 * @param groups the counts per user group (e.g. user class), when the run had groups
 * @param series per time bucket: attempts, completions, rejections, timeouts, p90
 * @param groupSeries the series per user group
 * @param gauges the server's admission rate, queue length and order, read while running
 * @param sessionsStarted sessions (or, closed loop, user sessions) begun
 * @param sessionsAbandoned sessions given up after a request finally failed
 * @param purchases confirms answered 200
 * @param purchasesWithoutRefusal confirms answered 200 in sessions that met no refusal before
 *     them: what users who leave at their first refusal buy
 * @param buyers sessions whose walk reached confirm, sent or not (an abandoned session's walk
 *     goes on without requests): the purchases offered, the most any guard could complete
 * @param sessionsRefusedAtEntry sessions whose first refusal fell on their first request
 * @param sessionsRefusedMidSession sessions whose first refusal came after a page of theirs
 *     had been served (the work done for them is lost if the user leaves)
 * @param buyersLost buyers who left without buying, by why: their first refusal at entry or
 *     mid-session, a timeout, a failed request (a 409 confirm, named by the first checkout step
 *     refused before it), or, for users who walk on after a refusal, their confirm refused
 * @param lagMaxMillis how far the generator fell behind its own schedule, at worst
 */
public record RunResult(
    Duration elapsed,
    double bucketSeconds,
    Map<ShopRequest, TypeCounts> types,
    Map<String, TypeCounts> groups,
    List<SeriesPoint> series,
    Map<String, List<SeriesPoint>> groupSeries,
    List<RunRecorder.GaugeSample> gauges,
    long sessionsStarted,
    long sessionsAbandoned,
    long purchases,
    long purchasesWithoutRefusal,
    long buyers,
    long sessionsRefusedAtEntry,
    long sessionsRefusedMidSession,
    Map<String, Long> buyersLost,
    double lagMaxMillis) {

  /**
   * One request type's (or group's) counts; {@code generated} includes retries,
   * {@code latencyMicros} holds completed requests only.
   */
  public record TypeCounts(
      long generated,
      long completed,
      long timedOut,
      long rejected,
      long failed,
      long notGenerated,
      Histogram latencyMicros) {

    /** The sum of two rows (for the "browsing" column of Table 4). */
    TypeCounts plus(TypeCounts o) {
      Histogram h = latencyMicros.copy();
      h.add(o.latencyMicros);
      return new TypeCounts(
          generated + o.generated,
          completed + o.completed,
          timedOut + o.timedOut,
          rejected + o.rejected,
          failed + o.failed,
          notGenerated + o.notGenerated,
          h);
    }

    /** Rejected attempts as a fraction of the attempts that got an answer or timed out. */
    public double rejectedFraction() {
      long ended = completed + timedOut + rejected + failed;
      return ended == 0 ? 0 : (double) rejected / ended;
    }

    /** A percentile of the completed requests' response time in milliseconds, NaN if none. */
    public double percentileMillis(double percentile) {
      return latencyMicros.getTotalCount() == 0
          ? Double.NaN
          : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }
  }

  /**
   * One time bucket; {@code purchases} counts those without a refusal before them;
   * {@code p90Millis} is NaN when nothing completed in it.
   */
  public record SeriesPoint(
      double seconds,
      long generated,
      long completed,
      long rejected,
      long timedOut,
      long purchases,
      double p90Millis) {

    public double rejectedFraction() {
      long ended = completed + rejected + timedOut;
      return ended == 0 ? 0 : (double) rejected / ended;
    }
  }

  /** The four browsing pages together, as Table 4 shows them. */
  public TypeCounts browsing() {
    return sum(true);
  }

  /** All request types together. */
  public TypeCounts total() {
    TypeCounts t = sum(true);
    return t.plus(sum(false));
  }

  private TypeCounts sum(boolean browsing) {
    TypeCounts t = new TypeCounts(0, 0, 0, 0, 0, 0, new Histogram(3));
    for (Map.Entry<ShopRequest, TypeCounts> e : types.entrySet()) {
      if (e.getKey().browsing() == browsing) {
        t = t.plus(e.getValue());
      }
    }
    return t;
  }

  /** Completed requests per second over the run. */
  public double goodputPerSecond() {
    return total().completed() / (elapsed.toNanos() / 1e9);
  }

  /** Requests completed with database work per second (the cart is free: left out). */
  public double pageGoodputPerSecond() {
    long pages = 0;
    for (ShopRequest r : ShopRequest.PAGES) {
      pages += types.get(r).completed();
    }
    return pages / (elapsed.toNanos() / 1e9);
  }

  /**
   * Purchases without a refusal before them, per minute, completed in the buckets ending in
   * ({@code fromSeconds}, {@code toSeconds}].
   */
  public double ordersPerMinute(double fromSeconds, double toSeconds) {
    long n =
        series.stream()
            .filter(p -> p.seconds() > fromSeconds && p.seconds() <= toSeconds)
            .mapToLong(SeriesPoint::purchases)
            .sum();
    return n * 60.0 / (toSeconds - fromSeconds);
  }

  /** Sessions let in: those started, less those refused at their first request. */
  public long sessionsAdmitted() {
    return sessionsStarted - sessionsRefusedAtEntry;
  }

  /** Buyers whose first request was not refused. */
  public long buyersAdmitted() {
    return buyers - buyersLost.getOrDefault("refused at entry", 0L);
  }

  /**
   * The buyers to expect among the sessions admitted when the guard cannot tell a buyer by his
   * first request (nobody can: every walk starts at the home page): admitted × buyers /
   * started. What a run's purchases owe to the guard is this; the rest is the draw.
   */
  public double buyersExpected() {
    return sessionsStarted == 0 ? 0 : (double) sessionsAdmitted() * buyers / sessionsStarted;
  }

  /**
   * The standard deviation of that draw: the admitted sessions are a sample without
   * replacement of those started, so the buyers among them are hypergeometric.
   */
  public double buyersSpread() {
    double n = sessionsAdmitted();
    double total = sessionsStarted;
    if (total < 2) {
      return 0;
    }
    double share = buyers / total;
    return Math.sqrt(n * share * (1 - share) * (total - n) / (total - 1));
  }

  /** The series points from {@code fromSeconds} on, for steady-state figures. */
  public List<SeriesPoint> seriesFrom(double fromSeconds) {
    return series.stream().filter(p -> p.seconds() > fromSeconds).toList();
  }

  static String fmt(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
  }
}
