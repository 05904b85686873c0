package org.overloadcontrol.internal.pipeline;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one reload of a running configuration did, for the operator who asked for it and for the
 * status page: either the new configuration is in force under a new version, or it was refused
 * and the running one stays in force, with the message that names the key, value and layer.
 *
 * @param at when the reload was decided (wall clock)
 * @param applied whether the new configuration is in force now
 * @param version the configuration version in force after the reload: one more than before when
 *     applied, unchanged when refused
 * @param message why it was refused, or a one-line summary of what changed
 * @param changes each changed key as {@code key: old → new}, secrets masked; empty when refused
 *     or when nothing changed
 */
public record ReloadResult(
    Instant at, boolean applied, long version, String message, List<String> changes) {

  public ReloadResult {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(message, "message");
    changes = List.copyOf(changes);
  }

  /** {@code "applied"} or {@code "refused"}, as the status page and the log say it. */
  public String result() {
    return applied ? "applied" : "refused";
  }
}
