package org.overloadcontrol.internal.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import org.overloadcontrol.internal.base.CpuClock;

/**
 * The platform's CPU clocks: a thread's from {@link ThreadMXBean}, the process's from {@code
 * com.sun.management.OperatingSystemMXBean}, the cores from {@link Runtime#availableProcessors}
 * (a container's quota where the JVM runs in one). A reading the platform refuses (CPU time
 * measurement off, a virtual thread on a JDK that does not measure one) is unknown, never an
 * error on the request's path.
 */
final class PlatformCpuClock implements CpuClock {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private final boolean threads;

  PlatformCpuClock() {
    boolean on;
    try {
      on = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    } catch (UnsupportedOperationException e) {
      on = false;
    }
    threads = on;
  }

  @Override
  public long threadNanos() {
    if (!threads) {
      return -1;
    }
    try {
      return THREADS.getCurrentThreadCpuTime();
    } catch (UnsupportedOperationException e) {
      return -1;
    }
  }

  @Override
  public long processNanos() {
    return OS instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun.getProcessCpuTime()
        : -1;
  }

  @Override
  public int cores() {
    return Runtime.getRuntime().availableProcessors();
  }
}
