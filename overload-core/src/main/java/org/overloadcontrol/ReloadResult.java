package org.overloadcontrol;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one reload of a running configuration did, as {@code OverloadFilter.reload()}, {@code
 * OverloadHandler.reload()} and {@code OverloadHandler.lastReload()} return it, and as the
 * status page, the log and the Jetty handler's JMX view say it (docs/guide/reload.md).
 *
 * <p>A reload reads every layer of the configuration again and checks it whole, as at start. It
 * is <em>applied</em> when the new configuration is valid and changes no key that can only
 * change at a restart: the new configuration is in force for every request that arrives from
 * then on, under a new version (or, when no key's value changed, under the same version). It is
 * <em>refused</em> otherwise, and also when the configuration cannot be read or the filter or
 * handler is stopping: the running configuration stays in force, unchanged, and {@link
 * #message} says why, with the same message a start would give (the key, its value and the
 * layer it came from).
 *
 * @param at when the reload was decided, by the wall clock
 * @param applied whether the reload was applied: true when the new configuration is in force
 *     now (or nothing changed), false when it was refused and the running one stays in force
 * @param version the configuration version in force after the reload (1 at start): one more
 *     than before when applied with changes; unchanged when nothing changed or when refused
 * @param message when refused, why (the problem that refused it); when applied, a one-line
 *     summary of what changed, such as {@code "changed endpoints.search.target: 800ms → 400ms"},
 *     or {@code "no key changed"}
 * @param changes each key whose effective value changed, as {@code key: old → new} ({@code
 *     (unset)} for a key not set, {@code ****} for a secret's value); empty when refused or when
 *     nothing changed; unmodifiable
 */
public record ReloadResult(
    Instant at, boolean applied, long version, String message, List<String> changes) {

  /**
   * Checks and copies the components.
   *
   * @throws NullPointerException when {@code at}, {@code message} or {@code changes} is null, or
   *     {@code changes} holds a null
   */
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
