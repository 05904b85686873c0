package org.overloadcontrol.it.support;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What an open-loop run measured. Counts cover the whole run; the latency histograms (in
 * microseconds, from each request's scheduled send time to its complete response) cover the
 * requests sent after the warm-up, one histogram per status code, 0 for requests that got no
 * response.
 *
 * @param sentCount requests sent
 * @param okCount 200 responses
 * @param rejectedCount refusals: 503 responses, and 429 (the filter's refusal in Tomcat)
 * @param otherCount responses with any other status
 * @param failedCount requests that got no response (timeout, connection error)
 * @param rejectedWithoutRetryAfterCount refusals without a valid {@code Retry-After}
 * @param sendLagMaxMicros the worst delay between a request's scheduled and actual send time
 * @param sendingTime how long the sending phase lasted
 * @param steadyLatencyByStatus latency histograms of the steady part, by status
 */
public record LoadSummary(
    long sentCount,
    long okCount,
    long rejectedCount,
    long otherCount,
    long failedCount,
    long rejectedWithoutRetryAfterCount,
    long sendLagMaxMicros,
    Duration sendingTime,
    Map<Integer, Histogram> steadyLatencyByStatus) {

  /** The status of requests that got no response. */
  public static final int NO_RESPONSE = 0;

  public LoadSummary {
    steadyLatencyByStatus = Map.copyOf(steadyLatencyByStatus);
  }

  /** Steady-part responses with {@code status}. */
  public long steadyCount(int status) {
    Histogram h = steadyLatencyByStatus.get(status);
    return h == null ? 0 : h.getTotalCount();
  }

  /** Steady-part refusals: 503s, and 429s (the filter's refusal in Tomcat). */
  public long steadyRefusedCount() {
    return steadyCount(503) + steadyCount(429);
  }

  /** All steady-part requests. */
  public long steadyTotalCount() {
    return steadyLatencyByStatus.values().stream().mapToLong(Histogram::getTotalCount).sum();
  }

  /** A percentile of the steady-part latency of {@code status} responses; zero if none. */
  public Duration steadyPercentile(int status, double percentile) {
    Histogram h = steadyLatencyByStatus.get(status);
    if (h == null || h.getTotalCount() == 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos(h.getValueAtPercentile(percentile) * 1000L);
  }

  /** p50 of the steady part's 200 responses. */
  public Duration okP50() {
    return steadyPercentile(200, 50);
  }

  /** p90 of the steady part's 200 responses. */
  public Duration okP90() {
    return steadyPercentile(200, 90);
  }

  /** p99 of the steady part's 200 responses. */
  public Duration okP99() {
    return steadyPercentile(200, 99);
  }

  /** One line per fact, for test output and experiment logs. */
  public String format() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "sent %d in %.1f s (%.1f/s): 200 %d, 503 %d, other %d,"
                + " no response %d; 503 without Retry-After %d; worst send lag %.1f ms%n",
            sentCount,
            sendingTime.toNanos() / 1e9,
            sentCount / Math.max(1e-9, sendingTime.toNanos() / 1e9),
            okCount,
            rejectedCount,
            otherCount,
            failedCount,
            rejectedWithoutRetryAfterCount,
            sendLagMaxMicros / 1e3));
    for (Map.Entry<Integer, Histogram> e : new TreeMap<>(steadyLatencyByStatus).entrySet()) {
      Histogram h = e.getValue();
      b.append(
          String.format(
              Locale.ROOT,
              "  steady %s: n=%d p50=%.0f ms p90=%.0f ms" + " p99=%.0f ms max=%.0f ms%n",
              e.getKey() == NO_RESPONSE ? "no response" : "status " + e.getKey(),
              h.getTotalCount(),
              h.getValueAtPercentile(50) / 1e3,
              h.getValueAtPercentile(90) / 1e3,
              h.getValueAtPercentile(99) / 1e3,
              h.getMaxValue() / 1e3));
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return format();
  }
}
