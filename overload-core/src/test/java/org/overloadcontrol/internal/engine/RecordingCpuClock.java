package org.overloadcontrol.internal.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.overloadcontrol.internal.base.CpuClock;

/**
 * A CPU clock that keeps every reading of a thread's CPU time, with the thread that took it, for
 * the tests that check when an execution is measured: {@link OverloadEngine#running} reads the
 * clock once for a sampled request under a concurrency limit, and its completion reads it once
 * more only where that start is the thread's own, so an execution measured is a start and a stop
 * on one thread and what it records is their difference. The readings come from a source the
 * test gives: moved by hand in the engine's test, the thread's real CPU time in the adapters'
 * ({@link #ofThreads}). The process's CPU time is unknown, so no limit judges the cores on it.
 */
public final class RecordingCpuClock implements CpuClock {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** One reading: the thread that took it and the CPU time it read. */
  public record Reading(Thread thread, long nanos) {

    /** Whether the current thread took it. */
    public boolean onThisThread() {
      return thread == Thread.currentThread();
    }
  }

  private final LongSupplier source;
  private final List<Reading> readings = new CopyOnWriteArrayList<>();

  /** Reads the current thread's CPU time from {@code source} (negative: unknown). */
  public RecordingCpuClock(LongSupplier source) {
    this.source = source;
  }

  /** The threads' real CPU time. */
  public static RecordingCpuClock ofThreads() {
    return new RecordingCpuClock(THREADS::getCurrentThreadCpuTime);
  }

  /** Whether the platform measures the current thread's CPU time (else the tests are skipped). */
  public static boolean measured() {
    return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  @Override
  public long threadNanos() {
    long nanos = source.getAsLong();
    readings.add(new Reading(Thread.currentThread(), nanos));
    return nanos;
  }

  @Override
  public long processNanos() {
    return -1;
  }

  @Override
  public int cores() {
    return 1;
  }

  /** How many readings were taken so far: a mark for {@link #since}. */
  public int count() {
    return readings.size();
  }

  /** The readings taken after the first {@code mark}, oldest first. */
  public List<Reading> since(int mark) {
    List<Reading> all = List.copyOf(readings);
    return all.subList(Math.min(mark, all.size()), all.size());
  }

  /**
   * The CPU time between the two readings of one execution measured, {@code readings} being
   * exactly its start and its stop on one thread; fails otherwise.
   */
  public static long measuredBetween(List<Reading> readings) {
    if (readings.size() != 2 || readings.get(0).thread() != readings.get(1).thread()) {
      throw new AssertionError("not one execution's start and stop on one thread: " + readings);
    }
    return readings.get(1).nanos() - readings.get(0).nanos();
  }
}
