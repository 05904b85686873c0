package org.overloadcontrol.internal.capacity;

import java.util.Map;

/**
 * A configured capacity (WebQ §I: "WebQ can also work with ... a manual capacity configuration
 * by the website administrator"), with configured hardness per type.
 */
public final class FixedCapacity implements CapacitySource {

  private final double capacity;
  private final Map<String, Double> hardness;

  public FixedCapacity(double capacity, Map<String, Double> hardness) {
    if (!(capacity > 0)) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.hardness = Map.copyOf(hardness);
  }

  @Override
  public double capacity(long nowNanos) {
    return capacity;
  }

  @Override
  public double hardness(String type) {
    return hardness.getOrDefault(type, 1.0);
  }
}
