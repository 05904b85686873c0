package org.overloadcontrol.internal.admission;

import java.util.Objects;

/**
 * The settings of the controller of one class at one endpoint: its p90 target (zero when the
 * class is measured but not controlled) and its controller parameters.
 *
 * @param targetNanos the 90th-percentile response-time target in nanoseconds; 0 means none
 * @param parameters the controller's tuning
 */
public record ClassSettings(long targetNanos, ControllerParameters parameters) {

  public ClassSettings {
    if (targetNanos < 0) {
      throw new IllegalArgumentException("targetNanos must be >= 0, was " + targetNanos);
    }
    Objects.requireNonNull(parameters, "parameters");
  }

  /** Whether admission is controlled (a target is set). */
  public boolean controlled() {
    return targetNanos > 0;
  }
}
