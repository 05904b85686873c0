package org.overloadcontrol.queue;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.function.DoubleSupplier;

/**
 * The JVM process's CPU utilisation in [0, 1] over the interval since the last reading, from
 * the platform's {@code com.sun.management.OperatingSystemMXBean}: the signal LIFO-Pri's
 * SET_DISCIPLINE reads (Singhmar et al. 2004, Algorithm 1). Where the platform does not offer
 * it, reads 0, so the switch stays FIFO; the queue-delay signal is the default for that reason
 * too.
 */
public final class ProcessCpuUtilisation implements DoubleSupplier {

  private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

  @Override
  public double getAsDouble() {
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      double load = sun.getProcessCpuLoad();
      return load < 0 ? 0.0 : load;
    }
    return 0.0;
  }
}
