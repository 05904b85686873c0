package org.overloadcontrol.internal.metrics;

import java.util.Locale;

/**
 * What an endpoint's users get now, in one word an operator reads at a glance: the same word in
 * the log, the status document, the metrics, the dashboard and the health contributor. Judged
 * by {@link OverloadWatch} over its window (the last {@code metrics.overloadQuietPeriod}, 5 s by
 * default); when several hold, the one declared last wins, so what users see worst is what the
 * word says.
 */
public enum EndpointState {

  /** Nothing refused, nothing waited, pages at full quality, every p90 under its target. */
  HEALTHY,

  /**
   * Admission control holds requests back but refuses none: requests waited for a permit, the
   * concurrency limit was full, or a class's p90 was at or over its target (the controller is
   * lowering its limit or rate).
   */
  LIMITING,

  /** Pages are served at a lowered quality level, and nothing is refused. */
  DEGRADED,

  /**
   * Requests were refused (503) or expired in a queue; {@link StateReading#refusedShare} says
   * what share of the window's answers that was. Shedding wins over degraded: a refused user
   * gets nothing, a degraded one a page.
   */
  SHEDDING;

  /** The word the log, the status document, the metrics and the dashboard use, e.g. "shedding". */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}
