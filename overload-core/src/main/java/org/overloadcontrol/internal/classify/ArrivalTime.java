package org.overloadcontrol.internal.classify;

import java.time.Clock;
import org.overloadcontrol.base.Ticker;

/**
 * Turns a trusted proxy's {@code X-Request-Start} header into an arrival time on the engine's
 * ticker, so the response time the controllers see includes the time the request spent queued
 * in front of the container.
 *
 * <p>Accepted forms, with or without the {@code t=} prefix used by nginx and HAProxy: seconds
 * with a fraction ({@code 1700000000.123}), or whole milliseconds, microseconds or nanoseconds
 * since the epoch (told apart by magnitude). A value in the future, older than {@code maxAge},
 * or unparsable is ignored and the request arrives "now": a clock skew must not make requests
 * look ancient and trigger shedding.
 */
public final class ArrivalTime {

  private final Ticker ticker;
  private final Clock wallClock;
  private final long maxAgeNanos;

  public ArrivalTime(Ticker ticker, Clock wallClock, long maxAgeNanos) {
    this.ticker = ticker;
    this.wallClock = wallClock;
    this.maxAgeNanos = maxAgeNanos;
  }

  /**
   * The arrival time on the ticker for a request read at {@code now}.
   *
   * @param header the header's value, or null
   */
  public long arrival(long now, String header) {
    if (header == null) {
      return now;
    }
    long epochNanos = parseEpochNanos(header);
    if (epochNanos <= 0) {
      return now;
    }
    java.time.Instant wall = wallClock.instant();
    long wallNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    long age = wallNanos - epochNanos;
    if (age < 0 || age > maxAgeNanos) {
      return now;
    }
    return now - age;
  }

  /** Reads the ticker; here so adapters need only this object to tag a request. */
  public long now() {
    return ticker.read();
  }

  static long parseEpochNanos(String header) {
    String v = header.trim();
    if (v.startsWith("t=")) {
      v = v.substring(2).trim();
    }
    try {
      if (v.indexOf('.') >= 0) {
        // BigDecimal: a double has only ~256 ns of resolution at today's epoch seconds.
        java.math.BigDecimal seconds = new java.math.BigDecimal(v);
        return seconds.signum() > 0 ? seconds.movePointRight(9).longValue() : -1;
      }
      long n = Long.parseLong(v);
      if (n <= 0) {
        return -1;
      }
      if (n < 100_000_000_000L) {
        return n * 1_000_000_000L; // seconds
      }
      if (n < 100_000_000_000_000L) {
        return n * 1_000_000L; // milliseconds
      }
      if (n < 100_000_000_000_000_000L) {
        return n * 1_000L; // microseconds
      }
      return n; // nanoseconds
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
