package org.overloadcontrol.internal.metrics;

import java.util.ArrayDeque;

/**
 * One endpoint's refusals and answers over a sliding window, kept as one entry per watch
 * period: the counts a {@link StateReading} gives, so "shedding 93 %" is the share of the last
 * few seconds, not of the time since start. Used on the watch's thread only.
 */
final class RefusalWindow {

  private record Period(long endNanos, long refused, long answered) {}

  private final long windowNanos;
  private final long startNanos;
  private final ArrayDeque<Period> periods = new ArrayDeque<>();
  private long refused;
  private long answered;

  /**
   * @param windowNanos how far back the counts reach
   * @param startNanos when counting began: the window covers no time before it
   */
  RefusalWindow(long windowNanos, long startNanos) {
    this.windowNanos = windowNanos;
    this.startNanos = startNanos;
  }

  /** Adds a period ending at {@code now} and drops the periods that ended a window or more ago. */
  void add(long now, long newRefused, long newAnswered) {
    periods.addLast(new Period(now, newRefused, newAnswered));
    refused += newRefused;
    answered += newAnswered;
    while (!periods.isEmpty() && now - periods.peekFirst().endNanos() >= windowNanos) {
      Period p = periods.removeFirst();
      refused -= p.refused();
      answered -= p.answered();
    }
  }

  long refused() {
    return refused;
  }

  long answered() {
    return answered;
  }

  /** The time the counts cover at {@code now}: the window, or less just after counting began. */
  long coveredNanos(long now) {
    return Math.min(windowNanos, now - startNanos);
  }
}
