package org.overloadcontrol.internal.admission;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.Saturation;

/**
 * Whether the admitted requests are what takes the process's cores: the executions' share of
 * the process's CPU time, and whether the process uses all the cores it has. State of one
 * {@link ConcurrencyGroup}: request threads add their sampled executions' CPU time, the engine's
 * round reads them with the process's CPU time.
 *
 * <p>Why. A cut answers executions that run long because the admitted requests queue for the
 * resource the limit guards. When the process's cores are saturated but the admitted
 * executions use only a small part of them, what lengthens the executions is the rest of the
 * process's work: a cold JVM compiling and loading the request path, or the container parsing
 * and refusing the retries of clients that re-send a refusal at once. Fewer admitted requests
 * then free almost none of the cores, and every cut refuses more, which under such clients
 * brings more retries and takes more of the cores: measured on a WAR whose 50 ms method runs on
 * its container's threads, on one core, at half its capacity, the limit went from 180 to 1–3
 * in the first seconds after the JVM started, its executions at 0.5–2 s, and 99 % of requests
 * were refused for the whole run while the same server without a limit (and Netflix's Vegas
 * limit, which stayed above the threads) refused nothing. Vegas and Gradient2 avoid this by
 * aiming at the lowest latency seen; here the limit aims at the operator's target, so it asks
 * instead whether a cut could shorten the executions at all.
 *
 * <p>The reading. The executions' cores are the window's level (requests in flight on average)
 * times the CPU time of its sampled executions over their length; the process's cores its CPU
 * time, averaged over about half a second (a reading of a 100 ms window is a few scheduler
 * ticks). The cores are taken elsewhere while the process uses at least {@value #SATURATED} of
 * its cores (until under {@value #UNSATURATED}), or the machine's are saturated (the engine's
 * reading of the machine's load, which the wait queues' room to wait reads too), the executions
 * use less than {@value #SMALL_SHARE} of what the process uses (of {@value #SATURATED} of the
 * cores, if it uses less), and each execution's own CPU time is under {@value #LIGHT_EXECUTION}
 * of its target. The machine counts because the cores another process takes lengthen light
 * executions as much: behind a downstream pool of 8, from a cold start under clients that re-send
 * every refusal at once (their load generator on the same two cores), the server's process used
 * under 0.8 of them while the machine used all, and executions of 27–50 ms (median) against 20
 * held the limit at 4–7, under the pool's connections, for seconds after the JVM had warmed. Why the last: a CPU-bound endpoint's executions (2 ms against a 20 ms target) get
 * little of cores shared with a retry storm, so their measured share was under a half, but
 * each competes with the others for the cores, and fewer in flight run faster; without it
 * they ran at 5–15 times their target in the workload matrix. The group adds one more
 * condition ({@link ConcurrencyGroup}): the recent windows must not show the executions
 * queueing behind each other, since a method waiting on a downstream pool of 8 is as light and,
 * on cores a retry storm saturates, was left at 5 times its target without cuts.
 */
final class CoreShare {

  /** The process's utilisation from which its cores count as saturated. */
  static final double SATURATED = 0.8;

  /** ... and under which they no longer do. */
  static final double UNSATURATED = 0.7;

  /** The executions' share of the process's CPU under which a cut cannot free its cores. */
  static final double SMALL_SHARE = 0.5;

  /**
   * The largest CPU time of an execution, over its target, that leaves the rule in force: an
   * execution that burns a real part of its target competes for the cores with the others, so a
   * cut shortens it even while other work takes most of them (a CPU-bound endpoint of 2 ms
   * against a 20 ms target, a tenth, ran at 5–15 times its target without the cuts).
   */
  static final double LIGHT_EXECUTION = 0.02;

  /**
   * The smallest CPU time of an execution, over its target, from which the executions are what
   * takes the cores (see {@link #limitToKeepBusy}): a twentieth of the target on a core.
   */
  static final double HEAVY_EXECUTION = 0.05;

  /**
   * The shortest span a reading of the process's CPU time covers: the platform counts it in
   * scheduler ticks, so a window of a few milliseconds reads 0 or several cores.
   */
  static final long SHORTEST_READING_NANOS = 50_000_000L;

  /** The time constant of the utilisation's exponential average. */
  static final long MEMORY_NANOS = 500_000_000L;

  private final LongAdder executionCpu = new LongAdder();
  private final LongAdder executionWall = new LongAdder();
  private final DoubleAdder executionCpuOverTarget = new DoubleAdder();
  private final LongAdder executions = new LongAdder();
  private double cpuOverTarget = Double.NaN;

  private volatile CpuClock clock = CpuClock.NONE;
  private long lastNanos = Long.MIN_VALUE;
  private long lastCpu;
  private final Saturation process = new Saturation(SATURATED, UNSATURATED);
  private double cpuPerExecution = Double.NaN;

  /** The clock the process's CPU time is read from. */
  void clock(CpuClock value) {
    clock = value;
  }

  /**
   * The process's CPU time over its cores, averaged over about {@link #MEMORY_NANOS} (round
   * thread); NaN before two readings or where the platform does not say.
   */
  double utilisation() {
    return process.average();
  }

  /** A sampled execution that ran {@code wallNanos} on one thread and took {@code cpuNanos}. */
  void addExecution(long cpuNanos, long wallNanos, long targetNanos) {
    if (cpuNanos >= 0 && wallNanos > 0) {
      long cpu = Math.min(cpuNanos, wallNanos);
      executionCpu.add(cpu);
      executionWall.add(wallNanos);
      executionCpuOverTarget.add(cpu / (double) targetNanos);
      executions.increment();
    }
  }

  /**
   * Whether, in the window that ends at {@code now} with {@code level} requests in flight on
   * average, the cores were saturated by work other than the admitted executions (the round):
   * the process's, or, when {@code machineSaturated}, the machine's, which another process may
   * take. Without a measured execution in the window the last measured one counts.
   */
  boolean takenElsewhere(long now, double level, boolean machineSaturated) {
    long wall = executionWall.sumThenReset();
    long cpu = executionCpu.sumThenReset();
    long n = executions.sumThenReset();
    double overTarget = executionCpuOverTarget.sumThenReset();
    if (wall > 0 && n > 0) {
      cpuPerExecution = cpu / (double) wall;
      cpuOverTarget = overTarget / n;
    }
    CpuClock c = clock;
    long processCpu = c.processNanos();
    int cores = Math.max(1, c.cores());
    if (processCpu < 0) {
      lastNanos = Long.MIN_VALUE;
      process.forget();
    } else if (lastNanos == Long.MIN_VALUE) {
      lastNanos = now;
      lastCpu = processCpu;
    } else if (now - lastNanos >= SHORTEST_READING_NANOS) {
      double reading = (processCpu - lastCpu) / (double) (now - lastNanos) / cores;
      process.add(reading, 1 - Math.exp(-(now - lastNanos) / (double) MEMORY_NANOS));
      lastNanos = now;
      lastCpu = processCpu;
    }
    return saturated(machineSaturated)
        && !Double.isNaN(cpuPerExecution)
        && cpuOverTarget < LIGHT_EXECUTION
        && level * cpuPerExecution < SMALL_SHARE * Math.max(SATURATED, process.average()) * cores;
  }

  /**
   * The lowest limit that keeps the cores busy while the admitted executions are what takes
   * them (round thread, after {@link #takenElsewhere} read the window): the process's cores,
   * while they, or when {@code machineSaturated} the machine's, are saturated and each
   * execution's CPU time is at least {@value #HEAVY_EXECUTION} of its target; 0 otherwise.
   *
   * <p>Why. Under it a core idles whatever the executions' length, and a cut can shorten them
   * only by what they take from each other. A CPU-bound endpoint (2 ms of CPU against a 20 ms
   * target, 2 cores shared with the load generator), after a 1-s stall of every request, its
   * clients honouring {@code Retry-After}, was cut to 1 and served 0.20–0.41 of its capacity
   * within the target from 3 s after the stall, Netflix's Vegas limit (at 6) 0.47–0.77 in the
   * same runs; held at 2, 0.37–0.61 against 0.30–0.92. Higher floors were tried (docs/history.md):
   * held at 6–10 (the cores times an execution's length over its CPU time) the executions ran
   * over their target at three times the capacity, on cores the refusals and the generator
   * share.
   */
  double limitToKeepBusy(boolean machineSaturated) {
    return saturated(machineSaturated) && cpuOverTarget >= HEAVY_EXECUTION
        ? Math.max(1, clock.cores())
        : 0;
  }

  /** Whether the process's cores, or when {@code machineSaturated} the machine's, are saturated. */
  private boolean saturated(boolean machineSaturated) {
    return process.saturated() || machineSaturated;
  }
}
