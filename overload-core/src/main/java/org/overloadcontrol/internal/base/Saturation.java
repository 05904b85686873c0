package org.overloadcontrol.internal.base;

/**
 * Whether a utilisation (of the machine's cores, of the process's) is saturated: an exponential
 * average of its readings, saturated from one level and until it falls under a lower one, so
 * that one busy or idle reading does not flip it. A NaN reading leaves it where it is; before
 * any reading it is not saturated. Used by one thread at a time.
 */
public final class Saturation {

  private final double from;
  private final double until;
  private double average = Double.NaN;
  private boolean saturated;

  /**
   * @param from the average at which it becomes saturated
   * @param until the average under which it no longer is
   */
  public Saturation(double from, double until) {
    if (!(until <= from)) {
      throw new IllegalArgumentException("until " + until + " above from " + from);
    }
    this.from = from;
    this.until = until;
  }

  /**
   * Takes one reading into the average with {@code weight} (0–1, the new reading's share) and
   * returns whether it is saturated now.
   */
  public boolean add(double reading, double weight) {
    if (Double.isNaN(reading)) {
      return saturated;
    }
    average = Double.isNaN(average) ? reading : average + weight * (reading - average);
    if (average >= from) {
      saturated = true;
    } else if (average < until) {
      saturated = false;
    }
    return saturated;
  }

  /** Whether it is saturated now. */
  public boolean saturated() {
    return saturated;
  }

  /** The average now; NaN before the first reading or after {@link #forget}. */
  public double average() {
    return average;
  }

  /** Back to no reading: not saturated, the average unknown. */
  public void forget() {
    average = Double.NaN;
    saturated = false;
  }
}
