package org.overloadcontrol.it.load;

import java.util.ArrayList;
import java.util.List;

/**
 * A value that changes in steps over a run: a session arrival rate or a number of users. The
 * load-spike schedule of Welsh & Culler 2003 §4.4 is {@code base} until the spike,
 * {@code peak} during it and {@code base} again after.
 */
public final class StepSchedule {

  private record Step(double fromSeconds, double value) {}

  private final List<Step> steps;

  private StepSchedule(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  /** The same value throughout. */
  public static StepSchedule constant(double value) {
    return new StepSchedule(List.of(new Step(0, value)));
  }

  /** {@code base}, then {@code peak} from {@code spikeStart} to {@code spikeEnd}, then base. */
  public static StepSchedule spike(
      double base, double peak, double spikeStartSeconds, double spikeEndSeconds) {
    if (!(spikeEndSeconds > spikeStartSeconds)) {
      throw new IllegalArgumentException("the spike must end after it starts");
    }
    return new StepSchedule(
        List.of(
            new Step(0, base), new Step(spikeStartSeconds, peak), new Step(spikeEndSeconds, base)));
  }

  /** This schedule, then {@code value} from {@code fromSeconds} on. */
  public StepSchedule then(double fromSeconds, double value) {
    List<Step> s = new ArrayList<>(steps);
    s.add(new Step(fromSeconds, value));
    return new StepSchedule(s);
  }

  /** The value at {@code seconds} into the run. */
  public double valueAt(double seconds) {
    double v = steps.get(0).value();
    for (Step s : steps) {
      if (seconds >= s.fromSeconds()) {
        v = s.value();
      }
    }
    return v;
  }

  /** The largest value of the schedule. */
  public double max() {
    return steps.stream().mapToDouble(Step::value).max().orElse(0);
  }
}
