package org.overloadcontrol.internal.virtualqueue;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.overloadcontrol.base.Ticker;

/**
 * Turns {@link Ticker} readings into Unix seconds, the time base of the virtual queue's slots
 * and tokens.
 *
 * <p>Why wall-clock seconds: a token must still verify after the client has waited, on another
 * node behind the same load balancer, or after a restart, so its check-in time cannot be a
 * reading of one JVM's monotonic clock. The wall clock is read exactly once, to anchor the
 * ticker; from then on only the ticker is read, so time never jumps backwards with NTP and tests
 * drive everything with a fake ticker.
 */
public final class EpochClock {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final Ticker ticker;
  private final long offsetNanos;

  private EpochClock(Ticker ticker, long offsetNanos) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.offsetNanos = offsetNanos;
  }

  /** Anchors {@code ticker} to the wall clock {@code wall}, read once now. */
  public static EpochClock anchored(Ticker ticker, Clock wall) {
    Instant now = wall.instant();
    long wallNanos =
        Math.addExact(Math.multiplyExact(now.getEpochSecond(), NANOS_PER_SECOND), now.getNano());
    return new EpochClock(ticker, wallNanos - ticker.read());
  }

  /** A clock on which ticker reading {@code tickerNanos} is Unix second {@code epochSecond}. */
  public static EpochClock fixed(Ticker ticker, long tickerNanos, long epochSecond) {
    return new EpochClock(ticker, epochSecond * NANOS_PER_SECOND - tickerNanos);
  }

  /** The current ticker reading. */
  public long nanos() {
    return ticker.read();
  }

  /** The Unix second that contains ticker reading {@code tickerNanos}. */
  public long epochSecond(long tickerNanos) {
    return Math.floorDiv(tickerNanos + offsetNanos, NANOS_PER_SECOND);
  }

  /**
   * How long from ticker reading {@code tickerNanos} until the wall clock next reaches a
   * multiple of {@code periodNanos} plus {@code offsetNanos} (since the Unix epoch): more than
   * 0, at most one period. Nodes whose wall clocks agree run such timers at the same moments.
   */
  public long nanosToBoundary(long tickerNanos, long periodNanos, long offsetNanos) {
    long into = Math.floorMod(tickerNanos + this.offsetNanos - offsetNanos, periodNanos);
    return periodNanos - into;
  }

  /** The ticker itself, for caches that expire entries. */
  public Ticker ticker() {
    return ticker;
  }
}
