package org.overloadcontrol.it.experiments.workloads;

import java.util.ArrayList;
import java.util.List;

/**
 * What happens in one matrix run, as the offered load over time in multiples of the measured
 * capacity, and when a stall begins. Every run starts on a JVM that has just started.
 *
 * @param key as {@code -Dexperiment.events} selects it
 * @param steps the load's steps
 * @param stallAtSeconds when every request stalls for {@link #STALL_MILLIS}, or NaN for no stall
 */
record Event(String key, List<Step> steps, double stallAtSeconds) {

  /** How long the stall holds every request. */
  static final long STALL_MILLIS = 1000;

  /** Measurements within a step start this long after it begins. */
  static final double SETTLE_SECONDS = 5;

  /** A step: {@code multiple} × capacity from {@code fromSeconds} for {@code seconds}. */
  record Step(double fromSeconds, double seconds, double multiple) {
    double toSeconds() {
      return fromSeconds + seconds;
    }
  }

  /** 2× from the first request of a cold JVM, for {@code seconds}. */
  static Event coldStart(double seconds) {
    return new Event("cold", List.of(new Step(0, seconds, 2)), Double.NaN);
  }

  /** 2× for {@code seconds}, every request stalled for 1 s at 40 % of it. */
  static Event stall(double seconds) {
    return new Event("stall", List.of(new Step(0, seconds, 2)), Math.floor(seconds * 0.4));
  }

  /** Steps of 0.5×, 1×, 3× and 0.5×, {@code stepSeconds} each. */
  static Event steps(double stepSeconds) {
    List<Step> s = new ArrayList<>();
    double t = 0;
    for (double m : new double[] {0.5, 1, 3, 0.5}) {
      s.add(new Step(t, stepSeconds, m));
      t += stepSeconds;
    }
    return new Event("steps", s, Double.NaN);
  }

  double seconds() {
    return steps.get(steps.size() - 1).toSeconds();
  }

  /** The offered multiple at {@code seconds} into the run. */
  double multipleAt(double seconds) {
    for (Step s : steps) {
      if (seconds < s.toSeconds()) {
        return s.multiple();
      }
    }
    return steps.get(steps.size() - 1).multiple();
  }

  boolean stalls() {
    return !Double.isNaN(stallAtSeconds);
  }

  double stallEndSeconds() {
    return stallAtSeconds + STALL_MILLIS / 1000.0;
  }
}
