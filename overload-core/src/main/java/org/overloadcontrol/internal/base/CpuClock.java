package org.overloadcontrol.internal.base;

/**
 * The CPU time the engine reads to tell whether the admitted requests are what takes the
 * process's cores ({@link org.overloadcontrol.internal.admission.CoreShare}): the current
 * thread's CPU time, read when a sampled request starts and ends its execution on one thread,
 * and the process's, read when a concurrency limit closes a window. Injected like the {@link
 * org.overloadcontrol.base.Ticker}, so that the controller's tests set both by hand.
 */
public interface CpuClock {

  /** Readings unknown: the limit is judged on execution times alone. */
  CpuClock NONE =
      new CpuClock() {
        @Override
        public long threadNanos() {
          return -1;
        }

        @Override
        public long processNanos() {
          return -1;
        }

        @Override
        public int cores() {
          return 1;
        }
      };

  /** The current thread's CPU time in nanoseconds, negative when unknown. */
  long threadNanos();

  /** The process's CPU time in nanoseconds, negative when unknown. */
  long processNanos();

  /** The cores the process may use. */
  int cores();
}
