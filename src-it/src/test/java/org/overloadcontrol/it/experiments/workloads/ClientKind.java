package org.overloadcontrol.it.experiments.workloads;

import java.time.Duration;

/**
 * How the matrix's clients answer a refusal (503, or the Netflix filter's 429): not at all,
 * at once (as {@code ab} and {@code wrk} do, and many HTTP libraries' retry policies), or after
 * the wait {@code Retry-After} names.
 */
enum ClientKind {
  /** Takes a refusal as the answer. */
  ONCE("once", 0),
  /** Re-sends at once, up to {@link #RETRIES_AT_ONCE} times. */
  RETRY_NOW("retry-now", 3),
  /**
   * Waits what {@code Retry-After} says ({@link #WITHOUT_RETRY_AFTER} when it says nothing, as
   * the peers' refusals do), then tries once more.
   */
  RETRY_AFTER("retry-after", 1);

  /** The most re-sends of a client that retries at once. */
  static final int RETRIES_AT_ONCE = 3;

  /** The wait of a {@link #RETRY_AFTER} client refused without {@code Retry-After}. */
  static final Duration WITHOUT_RETRY_AFTER = Duration.ofSeconds(1);

  private final String key;
  private final int retries;

  ClientKind(String key, int retries) {
    this.key = key;
    this.retries = retries;
  }

  String key() {
    return key;
  }

  /** The most re-sends after refusals. */
  int retries() {
    return retries;
  }

  static ClientKind named(String key) {
    for (ClientKind k : values()) {
      if (k.key.equals(key)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "experiment.clients: 'once', 'retry-now' or 'retry-after', was '" + key + "'");
  }
}
