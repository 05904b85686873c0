package org.overloadcontrol.internal.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The CPU readings the engine takes, in [0, 1], from the platform's {@code
 * com.sun.management.OperatingSystemMXBean}: the JVM process's utilisation, the signal
 * LIFO-Pri's SET_DISCIPLINE reads (Singhmar et al. 2004, Algorithm 1), and the machine's load
 * (its container's, where the JVM runs in one), which says whether the cores are saturated, so
 * that a request waiting for a permit takes cores from the requests being served. Where the
 * platform does not offer a reading: 0 for the process (the order switch stays FIFO; the
 * queue-delay signal is the default for that reason too), NaN for the machine (read as not
 * saturated).
 */
final class CpuLoad implements DoubleSupplier {

  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private final ToDoubleFunction<com.sun.management.OperatingSystemMXBean> reading;
  private final double unknown;

  private CpuLoad(
      ToDoubleFunction<com.sun.management.OperatingSystemMXBean> reading, double unknown) {
    this.reading = reading;
    this.unknown = unknown;
  }

  /** The JVM process's CPU utilisation since the last reading; 0 where unknown. */
  static CpuLoad process() {
    return new CpuLoad(com.sun.management.OperatingSystemMXBean::getProcessCpuLoad, 0.0);
  }

  /** The machine's CPU load since the last reading; NaN where unknown. */
  static CpuLoad machine() {
    return new CpuLoad(com.sun.management.OperatingSystemMXBean::getCpuLoad, Double.NaN);
  }

  @Override
  public double getAsDouble() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean sun) {
      double load = reading.applyAsDouble(sun);
      return load < 0 ? unknown : load;
    }
    return unknown;
  }
}
