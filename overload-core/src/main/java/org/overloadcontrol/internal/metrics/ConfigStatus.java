package org.overloadcontrol.internal.metrics;

import java.time.Instant;

/**
 * The running configuration's version and what the last reload did, as the status page, the
 * metrics and the dashboard show them, so that an operator sees which configuration each node
 * runs and a node that did not take a change (docs/guide/reload.md).
 *
 * @param version 1 at start, one more for each reload that was applied
 * @param reloads reloads asked for since start, applied or refused
 * @param failures reloads refused since start
 * @param lastAt when the last reload was decided, or null when there was none
 * @param lastResult {@code applied} or {@code refused}, or null when there was none
 * @param lastMessage what changed, or why it was refused; null when there was none
 */
public record ConfigStatus(
    long version,
    long reloads,
    long failures,
    Instant lastAt,
    String lastResult,
    String lastMessage) {

  /** A configuration as it started, never reloaded. */
  public static final ConfigStatus STARTED = new ConfigStatus(1, 0, 0, null, null, null);
}
