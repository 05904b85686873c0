package org.overloadcontrol.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.DoubleSupplier;

/**
 * The machine's CPU load in [0, 1] (its container's, where the JVM runs in one), from the
 * platform's {@code com.sun.management.OperatingSystemMXBean}: whether the cores are saturated,
 * so that a request waiting for a permit takes cores from the requests being served. NaN where
 * the platform does not offer it, which the engine reads as not saturated.
 */
final class MachineCpuLoad implements DoubleSupplier {

  private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

  @Override
  public double getAsDouble() {
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      double load = sun.getCpuLoad();
      return load < 0 ? Double.NaN : load;
    }
    return Double.NaN;
  }
}
