package org.overloadcontrol.internal.capacity;

import java.util.Map;

/**
 * What the server did during one epoch of {@code seconds} (WebQ §IV-B, τ = 10 s): per request
 * type, the arrivals, the completions (goodput) and the sum of their response times.
 */
record EpochSample(double seconds, Map<String, TypeCounts> types) {

  /** One type's counts within an epoch. */
  public record TypeCounts(long arrivals, long completions, double responseSecondsSum) {}

  public EpochSample {
    if (!(seconds > 0)) {
      throw new IllegalArgumentException("seconds must be positive: " + seconds);
    }
    types = Map.copyOf(types);
  }

  /** All arrivals in the epoch. */
  public long arrivals() {
    return types.values().stream().mapToLong(TypeCounts::arrivals).sum();
  }

  /** All completions in the epoch. */
  public long completions() {
    return types.values().stream().mapToLong(TypeCounts::completions).sum();
  }
}
