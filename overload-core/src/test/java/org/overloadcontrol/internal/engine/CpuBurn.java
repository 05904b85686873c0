package org.overloadcontrol.internal.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Burns the calling thread's own CPU time, for the adapters' tests that check what the engine
 * measured of an execution against what the application used.
 */
public final class CpuBurn {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuBurn() {}

  /** Spins until this thread has used {@code nanos} of CPU (or 10 s went by); what it used. */
  public static long burn(long nanos) {
    long start = THREADS.getCurrentThreadCpuTime();
    long deadline = System.nanoTime() + 10_000_000_000L;
    long used = 0;
    long sink = 0;
    while (used < nanos && System.nanoTime() - deadline < 0) {
      for (int i = 0; i < 10_000; i++) {
        sink += i * 31L ^ sink;
      }
      used = THREADS.getCurrentThreadCpuTime() - start;
    }
    if (sink == 42) {
      System.out.print(""); // keeps the loop from being optimised away
    }
    return used;
  }
}
