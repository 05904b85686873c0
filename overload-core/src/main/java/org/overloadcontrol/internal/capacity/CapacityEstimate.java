package org.overloadcontrol.internal.capacity;

import java.util.Map;

/**
 * The result of one run of WebQ's Algorithm 1: relative hardness per request type (the lightest
 * type is 1), the capacity in those subunits per second, and the fitted power-ratio curve whose
 * residual later detects a change of capacity (§IV-C).
 */
record CapacityEstimate(
    Map<String, Double> hardness, double capacity, PowerRatioCurve curve, int sampleCount) {

  public CapacityEstimate {
    hardness = Map.copyOf(hardness);
  }
}
