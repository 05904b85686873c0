package org.overloadcontrol.internal.engine;

import org.overloadcontrol.internal.base.Saturation;

/**
 * Whether the machine's cores are saturated, from its CPU load read at every periodic task
 * (100 ms): an exponential average over about the last second, saturated from {@value
 * #SATURATED} and until it falls under {@value #UNSATURATED}, so that one busy or idle reading
 * does not flip it. A load the platform does not give (NaN) leaves it where it is: not saturated
 * when never read.
 */
final class CoreSaturation {

  /** The average's weight of a new reading: about ten readings (a second) of memory. */
  static final double WEIGHT = 0.1;

  static final double SATURATED = 0.9;

  static final double UNSATURATED = 0.8;

  private final Saturation load = new Saturation(SATURATED, UNSATURATED);

  /** Takes one reading of the load; whether the cores are saturated now. */
  boolean saturated(double reading) {
    return load.add(reading, WEIGHT);
  }
}
