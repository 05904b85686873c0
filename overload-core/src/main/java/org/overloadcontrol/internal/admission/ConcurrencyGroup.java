package org.overloadcontrol.internal.admission;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.HdrHistogram.Histogram;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.Stripes;
import org.overloadcontrol.internal.measure.SampleBuffer;

/**
 * A concurrency limit shared by every endpoint behind one resource (a database pool, a
 * downstream service): how many of their requests with a target may execute at once. The
 * limit moves once per window by {@link ConcurrencyLimit}; requests over it wait in the
 * LIFO-Pri wait queues (the engine hands them to {@code WaitQueues}, which asks
 * {@link Partition#tryAcquire} again when a permit frees), so priorities keep working.
 *
 * <p>Windows. A window closes after {@code windowSamples} execution times (at most one window
 * per 10 ms) or {@code windowNanos}, whichever comes first (Envoy's adaptive concurrency uses
 * 100 ms windows; the paper's controller 100 samples). A sample is the execution time (from the
 * start of its run to the completion, or to its permit's lapse for a request that runs on no
 * thread: the wait for a permit, and for a container thread after it, excluded) over the target
 * of the request's class, so
 * endpoints with different targets share one limit: the window's p90 of that ratio is compared
 * with the setpoint. The wait is left out because it is not the resource's doing: a limit cut
 * for waits would lengthen them.
 *
 * <p>Every class's own target. The window's p90 is of all its samples, so a class with few
 * requests and a tighter target than the rest (the shop's checkout pages, 150 ms beside the
 * browsing pages' 200 ms, a few per cent of the samples) rides on the others' p90: execution
 * times on a shared bottleneck are mostly the same queueing delay, so the limit that held the
 * browsing pages at 0.95 of their target held checkout at 1.3 of its (overload sweep on the
 * shop, docs/results.md). A per-window maximum over classes does not help: a sparse class has a
 * sample in one window of twenty, and the windows between grow the limit back. So each class
 * tracks its own 90th percentile by stochastic approximation (one step per sample, whatever
 * the window: a response, wait included up to the class's own bound, over its target multiplies the class's scale by
 * {@value #MISS_STEP}, one under it by {@value #MEET_STEP}, which balance at a miss share of
 * 7.7 %, and climb from the floor back to 1 in 18 samples within the target: a sparse class
 * must not hold the limit down long after a start-up transient). The aim is under 10 % because
 * a class's p90 aimed at its target scatters past 1.1 × its target on the 20–60 responses a
 * sparse page gets in a minute (the shop's session workload); 5 % cost goodput at 1.4 × the
 * capacity in the shop-like simulation. A class with fewer than {@value #SPARSE_SAMPLES} samples
 * over about its last {@value #CLASS_MEMORY_WINDOWS} windows aims at 6 % ({@link
 * #SPARSE_MEET_STEP}): the p90 of a few responses is their largest or second largest, so one
 * slow response decides it. The group's p90 is judged
 * against the setpoint times the smallest scale of the classes seen in the last
 * {@value #CLASS_MEMORY_WINDOWS} windows in which requests waited: the class with the least
 * slack sets the limit, and the others meet their targets with room to spare. Each sample
 * carries its class and its miss in its high bits, so the request path writes nothing more.
 *
 * <p>The predicted p90 of the class with the least slack. A sparse class learns of its misses
 * a few dozen times a minute, so by its scale alone the limit grows until one of its responses
 * is late. But on a shared bottleneck an execution is the request's own work plus the queueing
 * in front of it, and that queueing is the same for every class: each window takes every
 * sample's execution less its own class's running median, and the 90th percentile of those
 * deviations over all classes. A class's predicted p90 is its median plus that percentile, over
 * its target, for {@value #CLASS_MEMORY_WINDOWS} windows or a minute after its last sample,
 * whichever is longer (a checkout page served once in 10–30 s must not drop out between two
 * buyers); in a window in which requests waited the limit is judged on the largest of them
 * (over the square root of the smallest scale) when that is above the group's p90 over the
 * scale. In the shop-like simulation, 40 sweeps of 60 s steps from 1× to 10×, step-runs with a
 * page over 1.1 × its target went from 13 of 200 to none (docs/controller.md).
 *
 * <p>A sparse class's median at the level now. A class's median execution carries the
 * queueing of the moments it was served, and a checkout page served once in tens of seconds
 * meets the limit the browsing pages grew to since; the browsing pages, served at every level,
 * show no spread about their own medians, so the percentile above does not show that growth.
 * Each class therefore keeps the mean in-flight level (its windows' peak, at most the limit)
 * its samples ran at, and a class without a sample in the window is predicted at the limit
 * now: its median times (limit + 1) / (its level + 1), never less than its median. In the
 * shop-like simulation offered the overload sweep's own sessions (60 seeds), 10× step-runs
 * with a checkout response over 1.1 × its target went from 11 to 1 (docs/controller.md).
 *
 * <p>A cut stops at what ran within target ({@link ThroughputFloor}): never under the group's
 * best second of the last ten, counted as the requests it kept in flight, at most what its
 * completions within target need at twice the shortest execution. A window judged on the
 * predicted p90 of the class with the least slack, when several classes are predicted, is not
 * floored: that class's target holds the limit, and the others' throughput is no measure of it.
 * Nor is a cut ever under the process's cores while the executions are what takes them ({@link
 * CoreShare#limitToKeepBusy}): a CPU-bound endpoint's limit at 1 idles a core.
 *
 * <p>Partitions (Netflix concurrency-limits' {@code AbstractPartitionedLimiter}, with shares
 * learnt rather than configured). Each request class has a {@link Partition}. At each window's
 * end a class reserves what it holds then; a class may take a permit while the group's
 * in-flight count plus the unused reservations of higher-ranked classes stays under the limit.
 * So a higher class keeps its share against lower classes that grab every permit it frees, a
 * lower class borrows whatever higher classes do not use, and when a higher class leaves, its
 * reservation is gone at the next window's end: no class starves at a rate floor, and none
 * waits for a controller to climb back. Reservations bind only the upper half of the limit:
 * while fewer than half the limit's permits are taken, any class takes one. Sparse higher
 * classes (the shop's checkout steps) reserve permits they then leave unused for most of a
 * window; binding the whole limit, those reservations kept the shop's one database
 * connection idle 3–4 % of the time while requests waited for it, and the waiters' expiry cut
 * goodput at 2× capacity to 0.92 (shop-like case of the shared-bottleneck simulation). The
 * upper half still keeps a higher class's share against lower classes that grab every
 * permit it frees, and its waiters go first in the wait queues anyway.
 *
 * <p>Concurrency. The group's permits are a {@link LeasedPermits}: under half the limit a
 * request takes a permit from its stripe's pocket, leased in small batches, and puts it back
 * there, so two cores do not write one shared word per request; above it, acquire is a CAS
 * loop on the committed count (the limit is a hard bound either way). Then a striped add for
 * the class's own count, and a volatile read of the limit. Samples go into a striped
 * {@link SampleBuffer} (two plain stores). A window's round runs on the first thread that
 * finds it due, under a guard taken by CAS and never waited for.
 */
public final class ConcurrencyGroup {

  /** Ratios are recorded in units of 1/10,000 of the target. */
  private static final double RATIO_UNIT = 10_000.0;

  private static final long MAX_RATIO_UNITS = 1_000L * 10_000L;
  private static final long MIN_WINDOW_NANOS = 10_000_000L;
  private static final int SUM_EVERY = 4;

  /**
   * Samples a window needs before its time closes it; with fewer it runs on, up to
   * {@link #LONGEST_WINDOWS} windows. At 40 completions a second a 100 ms window holds four
   * execution times, whose p90 swings the limit by ±25 % on noise alone.
   */
  static final int MIN_SAMPLES = 20;

  static final int LONGEST_WINDOWS = 10;

  /**
   * The share of the executions that must be queueing (by {@link LevelHistory}) for the classes'
   * scale to lower the setpoint. A class's responses miss by its executions and its waits
   * together; the scale cuts the limit to shorten the executions, which works where they queue
   * (on a shared bottleneck a cut of a fifth shortens them by about a fifth and the waits beside
   * them stay). Where they do not, each cut lengthens the waits that caused the misses: a
   * 50 ms method after a cold start, its executions at 0.55–0.7 of the target whatever the
   * limit, sat at a limit of 4–15 for eight seconds while requests waited 40 ms and missed.
   */
  static final double SCALED_QUEUEING = 0.3;

  /**
   * The share of a pressed window's peak in flight that its executions must keep busy on
   * average for the classes' scale to lower the setpoint. Under it most permits were held by
   * requests not yet running: handed over from the wait queue and waiting for a container
   * thread behind a storm of re-sent attempts. A cut there does not shorten the executions but
   * leaves the resource idle for longer: behind a downstream pool of 8 after a cold start, the
   * executions at 0.2–0.9 of their target and two to four of them running under a limit of
   * 5–8, the scale cut the limit to 4 and held it under 20 for seconds.
   */
  static final double SCALED_BUSY = 0.5;

  /** How much the lowest recent median rises each window (see {@link #queueing}). */
  static final double BASELINE_DRIFT = 1.001;

  /** The fewest samples that close a window at a small limit (see {@link #minSamples(int)}). */
  static final int FEWEST_SAMPLES = 4;

  /** A class's scale after a response over its target (see the class comment). */
  static final double MISS_STEP = 0.7;

  /** A class's scale after a response within its target. */
  static final double MEET_STEP = 1.03;

  /**
   * A sparse class's scale after a response within its target: balanced against
   * {@link #MISS_STEP} at a miss share of 6 % instead of 7.7 % (see {@link #SPARSE_SAMPLES}).
   */
  static final double SPARSE_MEET_STEP = 1.023;

  /**
   * Samples a class has had over about its last {@value #CLASS_MEMORY_WINDOWS} windows under
   * which it is sparse. The p90 of fifty responses is their fifth largest; of ten, their
   * largest: one slow response decides it, so a sparse class aims lower.
   */
  static final int SPARSE_SAMPLES = 50;

  /** The lowest scale: the group's p90 is never aimed under 0.6 of the setpoint. */
  static final double MIN_SCALE = 0.6;

  /** Windows a class's scale counts after its last sample. */
  static final int CLASS_MEMORY_WINDOWS = 50;

  /**
   * The step of a class's running median of execution time: up or down by 5 % a sample, so
   * 20 samples move it by a factor of 2.6.
   */
  static final double MEDIAN_STEP = 1.05;

  /**
   * How long a class's predicted p90 counts after its last sample, however many windows
   * passed. At 10× the shop's checkout pages are served once in 10–30 s each, tens of windows
   * apart: counted in windows only, they dropped out of the prediction between two responses,
   * the limit grew to what the browsing pages tolerate, and the next checkout response was late.
   */
  static final long PREDICTION_MEMORY_NANOS = 60_000_000_000L;

  /**
   * The waiters a class keeps over the permits expected to free within the wait's bound (see
   * {@link Partition#roomToWait}): the limit and the median move from window to window, and a
   * waiter too few leaves the resource idle at a hand-over. At 1 (no margin) the shop-like
   * simulation lost purchases at 10× and the shared bottleneck's p90 rose over 1.1× its target.
   */
  static final double WAIT_ROOM = 2.0;

  /**
   * While the cores are saturated, what a waiter refused at its deadline multiplies its class's
   * waiting room by, and what a waiter that got its permit multiplies it by (back up to {@link
   * #WAIT_ROOM}): they balance at about one waiter in twelve refused at its deadline (see {@link
   * Partition#roomToWait}).
   */
  static final double EXPIRED_ROOM_STEP = 0.9;

  static final double RESUMED_ROOM_STEP = 1.01;

  /** The smallest waiting room factor: with it, about one waiter per class. */
  static final double LEAST_ROOM = 0.05;

  /** Responses a class's {@link Partition#missShare} averages over (exponentially). */
  static final int MISS_SHARE_SAMPLES = 20;

  private static final long UNITS_MASK = (1L << 24) - 1;
  private static final long MISS_BIT = 1L << 24;
  private static final int CLASS_SHIFT = 32;
  private static final long CLASS_MASK = (1L << 16) - 1;

  /** A sample's hand-over, in units of 1/1,000 of its target, in its top 16 bits. */
  private static final int HAND_OVER_SHIFT = 48;

  private static final double HAND_OVER_UNIT = 1_000.0;
  private static final long MAX_HAND_OVER_UNITS = (1L << 16) - 1;

  /**
   * Samples over which a class's median is exact before the steps of {@link #MEDIAN_STEP}
   * take over. Stepped from its first sample, the median of a class whose first request ran
   * cold (a payment at 1.3 × its target, the next ones at 0.4–0.6 ×) was still over the
   * target after nine samples, and held the class's wait bound at its floor.
   */
  static final int EXACT_MEDIAN_SAMPLES = 11;

  /**
   * The weight of a window's level in a class's mean level once its first {@link
   * #EXACT_MEDIAN_SAMPLES} samples are in: the same pace as its median's steps.
   */
  static final double LEVEL_STEP = 0.05;

  private final String name;
  private final ConcurrencyLimit algorithm;
  private final long windowNanos;
  private final int windowSamples;
  private final AdmissionListener listener;
  private final LeasedPermits permits = new LeasedPermits();
  private final AtomicBoolean roundGuard = new AtomicBoolean();
  private final ReentrantLock partitionLock = new ReentrantLock();
  private final SampleBuffer samples = new SampleBuffer();
  private final Histogram histogram = new Histogram(1, MAX_RATIO_UNITS, 3);
  private final java.util.function.LongConsumer intoRound = this::drained;

  /** Highest rank first; replaced, never mutated. */
  private volatile Partition[] partitions = new Partition[0];

  /** By {@link Partition#index}; replaced, never mutated. */
  private volatile Partition[] byIndex = new Partition[0];

  /** Round state: the windows closed so far. */
  private long windowCount;

  /** Round state: the time of the round under way. */
  private long roundNanos;

  /** Round state: the smallest scale of the classes seen lately, read by the round. */
  private double scale = 1.0;

  /**
   * Round state: this window's execution times less their class's median execution
   * (nanoseconds), the queueing every class of the group meets.
   */
  private long[] deviations = new long[128];

  private int deviationCount;

  /** Round state: this window's execution times, summed (nanoseconds). */
  private double executedNanos;

  /**
   * Round state: the hand-overs of this window's executions, summed (nanoseconds): for a request
   * that waited, from the permit given to it to its execution's start on a container thread.
   */
  private double handedOverNanos;

  /** Round state: this window's executions within their target. */
  private long withinTarget;

  /** Round state: the targets of this window's executions within them, summed (nanoseconds). */
  private double withinTargetNanos;

  /** Round state: the targets of all this window's executions, summed (nanoseconds). */
  private double targetsNanos;

  /** Round state: the in-flight level of the window being drained (its peak, at most the limit). */
  private int windowLevel = 1;

  /** Round state: the classes the last window's prediction counted. */
  private int predictedClasses;

  /** Round state: the lowest median execution over target of recent windows. */
  private double baselineMedian = Double.MAX_VALUE;

  /** The p90 of execution time over target of the last window with samples; NaN before. */
  private volatile double lastP90OfTarget = Double.NaN;

  /** The enforced limit, the floor of {@link #exactLimit}. */
  private volatile int limit;

  /** Whether the in-flight count reached the limit since the window began. */
  private volatile boolean reached;

  /** Whether a request of the group waited for a permit since the window began. */
  private volatile boolean pressed;

  /**
   * Round state: completions still owed to the requests that were in flight over the new limit
   * at the last cut. A window at least half of whose completions may be theirs judges requests
   * admitted over the new limit, whose slowness the cut already answered (the dead time after a
   * cut), and may not cut again (but for a deep backlog, see {@link ConcurrencyLimit}). Ended
   * at the first permit taken after the cut instead, a cold start's slow executions took the
   * limit from 180 to 1 in four seconds, windows cutting on requests admitted under a limit
   * two or three cuts higher. Counted, not traced per request:
   * judging only the requests admitted after the cut leaves out the long ones that began just
   * before it, and the worst endpoint's p90 in the shared-bottleneck simulation at twice the
   * capacity rose from within 1.1 to 1.3 times the target.
   */
  private long owedCompletions;

  /** Round state: whether this window is in the dead time after a cut (see above). */
  private boolean settling;

  /**
   * The largest in-flight count since the window began (raced: a hint, not a count; under
   * half the limit it counts the permits leased to stripes, see {@link LeasedPermits}).
   */
  private volatile int peak;

  private volatile long windowStartNanos;

  /** Round state (under the guard). */
  private double exactLimit;

  /** Round state: whether the last cuts shortened the executions. */
  private final CutCheck cuts = new CutCheck();

  /** Whether the admitted executions are what takes the process's cores. */
  private final CoreShare coreShare = new CoreShare();

  /** Whether the executions queue behind each other (round state). */
  private final LevelHistory levels = new LevelHistory();

  /** The lowest limit a cut may leave (round state). */
  private final ThroughputFloor floor = new ThroughputFloor();

  /** Whether the machine's cores are saturated (set by the engine's periodic task). */
  private volatile boolean coresSaturated;

  /**
   * Whether the admitted executions are what takes the saturated cores (set by the round, from
   * {@link CoreShare#limitToKeepBusy}): then a browsing request finds no room to wait ({@link
   * Partition#roomToWait}).
   */
  private volatile boolean executionsTakeCores;

  /**
   * @param name the group's name, for logs
   * @param algorithm the limit's round
   * @param initialLimit the limit before the first window
   * @param windowNanos the longest window
   * @param windowSamples samples that close a window early
   * @param listener told about every window
   * @param now the ticker now
   */
  public ConcurrencyGroup(
      String name,
      ConcurrencyLimit algorithm,
      int initialLimit,
      long windowNanos,
      int windowSamples,
      AdmissionListener listener,
      long now) {
    this.name = name;
    this.algorithm = algorithm;
    this.windowNanos = windowNanos;
    this.windowSamples = windowSamples;
    this.listener = listener;
    this.exactLimit = Math.max(algorithm.minLimit(), Math.min(algorithm.maxLimit(), initialLimit));
    this.limit = (int) exactLimit;
    this.windowStartNanos = now;
  }

  public String name() {
    return name;
  }

  /** The limit now: requests with a target that may execute at once in this group. */
  public int limit() {
    return limit;
  }

  /** Requests of the group executing now. */
  public int inFlight() {
    return permits.inFlight();
  }

  /** The partition of {@code requestClass}, created on first use. */
  public Partition partition(ClassDefinition requestClass, long targetNanos, long maxWaitNanos) {
    for (Partition p : partitions) {
      if (p.requestClass.name().equals(requestClass.name())) {
        return p;
      }
    }
    // A lock, not a monitor: a virtual thread blocked here would pin its carrier on JDK 21–23.
    partitionLock.lock();
    try {
      for (Partition p : partitions) {
        if (p.requestClass.name().equals(requestClass.name())) {
          return p;
        }
      }
      if (byIndex.length > CLASS_MASK) {
        // A sample carries its class's index in 16 bits; a class past them would be misread.
        throw new IllegalStateException(
            "group '" + name + "' has " + byIndex.length + " request classes, the most it holds");
      }
      Partition created = new Partition(requestClass, targetNanos, maxWaitNanos, byIndex.length);
      Partition[] indexed = Arrays.copyOf(byIndex, byIndex.length + 1);
      indexed[created.index] = created;
      byIndex = indexed;
      Partition[] next = Arrays.copyOf(partitions, partitions.length + 1);
      next[next.length - 1] = created;
      Arrays.sort(next, (a, b) -> a.requestClass.compareTo(b.requestClass));
      partitions = next;
      return created;
    } finally {
      partitionLock.unlock();
    }
  }

  /**
   * Closes the window if its time is up (from the engine's periodic task, so that a window
   * without completions still ends). Returns whether the limit rose.
   */
  public boolean tick(long now) {
    return dueByTime(now - windowStartNanos) && runRoundIfFree(now);
  }

  /**
   * Whether the machine's cores are saturated now (the engine's periodic task tells): then a
   * waiter costs the requests being served the cores its suspension and resumption take, and
   * each class's waiting room learns from its waiters' expiries; otherwise it is the room
   * Little's law gives (see {@link Partition#roomToWait}). Light executions that do not queue
   * are then not cut ({@link CoreShare}), whichever process takes the cores.
   */
  public void coresSaturated(boolean saturated) {
    if (coresSaturated == saturated) {
      return;
    }
    coresSaturated = saturated;
    if (!saturated) {
      for (Partition p : partitions) {
        p.roomFactor = WAIT_ROOM;
      }
    }
  }

  /**
   * The CPU clocks that say, with the executions' own CPU time, whether a cut could shorten
   * them ({@link CoreShare}); {@link CpuClock#NONE} until set.
   */
  public void cpuClock(CpuClock clock) {
    coreShare.clock(clock);
  }

  /**
   * The in-flight count from which reservations bind: under half the limit the resource is
   * underused, and holding a request back for a higher class that may never come only idles it.
   */
  private static int reservable(int limit) {
    return (limit + 1) / 2;
  }

  private boolean dueByTime(long elapsed) {
    return elapsed >= windowNanos
        && (elapsed >= LONGEST_WINDOWS * windowNanos || samples.pending() >= minSamples(limit));
  }

  /**
   * Samples a window needs before its time closes it: {@link #MIN_SAMPLES}, or four times
   * the limit when that is fewer (never under {@value #FEWEST_SAMPLES}). At a limit of 1 and 50 ms
   * executions twenty samples took a second, and a limit that had to grow from there took tens
   * of seconds; the p90 of a few samples is their largest, which is the right judge of a limit
   * that small.
   */
  static int minSamples(int limit) {
    return Math.max(FEWEST_SAMPLES, Math.min(MIN_SAMPLES, 4 * limit));
  }

  private boolean runRoundIfFree(long now) {
    if (!roundGuard.compareAndSet(false, true)) {
      return false;
    }
    try {
      return round(now);
    } finally {
      roundGuard.set(false);
    }
  }

  /** One window's round; the caller holds the guard. Returns whether the limit rose. */
  private boolean round(long now) {
    histogram.reset();
    windowCount++;
    roundNanos = now;
    deviationCount = 0;
    executedNanos = 0;
    handedOverNanos = 0;
    withinTarget = 0;
    withinTargetNanos = 0;
    targetsNanos = 0;
    int peakInFlight = peak;
    windowLevel = Math.max(1, Math.min(limit, peakInFlight));
    long count = samples.drain(intoRound)[0];
    settling = owedCompletions * 2 > count;
    owedCompletions = Math.max(0L, owedCompletions - count);
    double predicted = predictedTightest();
    double p90 =
        histogram.getTotalCount() == 0
            ? Double.NaN
            : histogram.lowestEquivalentValue(histogram.getValueAtPercentile(90.0)) / RATIO_UNIT;
    if (!Double.isNaN(p90)) {
      lastP90OfTarget = p90;
    }
    boolean wasReached = reached;
    if (wasReached) {
      reached = false;
    }
    boolean wasPressed = pressed || wasReached;
    if (pressed) {
      pressed = false;
    }
    peak = permits.inFlight();
    double before = exactLimit;
    stepScales(p90 > 1.0);
    scale = smallestScale();
    // Only a window in which requests waited is judged against a class's scale and the
    // predicted p90 of the class with the least slack: in one without waits the limit is cut
    // only for the target itself (see ConcurrencyLimit), so a healthy load is never throttled.
    double median =
        Double.isNaN(p90)
            ? Double.NaN
            : histogram.lowestEquivalentValue(histogram.getValueAtPercentile(50.0)) / RATIO_UNIT;
    double level = workLevel(now, before);
    if (!settling) {
      levels.add(level, median);
    }
    // Light executions on cores other work saturates (CoreShare) are not cut, unless the recent
    // windows show them queueing behind each other: a method waiting on a downstream pool while
    // the container refuses a retry storm is as light, and there a cut shortens the pool's queue.
    // Unknown (too few windows, one level) is read as queueing, so a cold start still cuts.
    double queueingShare = levels.queueingShare(level);
    boolean elsewhere =
        coreShare.takenElsewhere(now, level, coresSaturated) && queueingShare < SCALED_QUEUEING;
    double keepsCoresBusy = coreShare.limitToKeepBusy(coresSaturated);
    executionsTakeCores = keepsCoresBusy > 0;
    boolean waitingForThreads = waitingForThreads(wasPressed);
    boolean cutCannotShorten = elsewhere || waitingForThreads;
    double judged = p90;
    boolean tightestDecides = false;
    if (wasPressed) {
      // The scale asks for shorter executions so that waits fit beside them; where a cut cannot
      // shorten them (they do not queue, or most permits wait for a thread to run on), it only
      // lengthens the waits that made the misses.
      boolean scaled = !(queueingShare < SCALED_QUEUEING) && level >= SCALED_BUSY * windowLevel;
      double usedScale = scaled ? scale : 1.0;
      judged = p90 / usedScale;
      // The prediction already aims the tightest class at the setpoint; its own misses lower
      // that aim by the square root of its scale only (the whole scale as well cost goodput
      // at 1.4× and 2× in the shop-like simulation, and no page was late the less).
      double tightest = predicted / Math.sqrt(usedScale);
      if (tightest > judged) {
        judged = tightest;
        tightestDecides = predictedClasses > 1;
      }
    }
    double queueing = queueing(median);
    floor.add(
        now,
        now - windowStartNanos,
        withinTargetNanos * ThroughputFloor.shareOfNeed(baselineMedian),
        level);
    double next =
        algorithm.next(
            before,
            new LimitWindow(
                judged,
                wasReached,
                wasPressed,
                peakInFlight,
                settling,
                queueing,
                cutCannotShorten,
                backlog(now)));
    // A cut stops at what the group ran within its targets in its best recent second: under it
    // the resource idles, whatever made the executions long (ThroughputFloor). One for the
    // predicted p90 of the class with the least slack does not: that class's target is what the
    // limit holds, and the other classes' throughput is no measure of it. Nor under the
    // process's cores while the executions take them (CoreShare): a core idles there whatever
    // the targets.
    double throughputFloor = tightestDecides ? 0 : floor.limit(now);
    double lowest = Math.min(before, Math.max(throughputFloor, keepsCoresBusy));
    boolean floored = next < lowest;
    if (floored) {
      next = lowest;
    }
    exactLimit =
        cuts.limitAfter(
            new CutCheck.Window(
                windowCount,
                level,
                withinTarget * 1e9 / Math.max(1, now - windowStartNanos),
                median,
                p90,
                count,
                wasReached,
                // A cut through the dead time (a deep backlog, ConcurrencyLimit) is checked like
                // any other: on a cold JVM whose executions are long at every level it did not
                // work, and the check takes it back.
                (settling && next >= before) || cutCannotShorten,
                permits.inFlight()),
            before,
            next);
    int old = limit;
    limit = (int) exactLimit;
    if (limit < old) {
      owedCompletions = Math.max(0, permits.inFlight() - limit);
    }
    // Each class reserves what it holds now; a class that has left holds nothing and frees
    // its share here, one window after it left at most.
    Partition[] all = partitions;
    int[] held = new int[all.length];
    for (int i = 0; i < all.length; i++) {
      held[i] = Math.min(limit, all[i].inFlightNow());
    }
    for (int i = 0; i < all.length; i++) {
      int above = 0;
      for (int j = 0; j < all.length; j++) {
        if (all[j].requestClass.rank() > all[i].requestClass.rank()) {
          above += held[j];
        }
      }
      all[i].reserve = held[i];
      all[i].reservedAbove = Math.min(limit, above);
    }
    windowStartNanos = now;
    listener.onLimitRound(
        new LimitRound(
            name,
            now,
            count,
            p90,
            wasReached,
            before,
            exactLimit,
            level,
            median,
            queueingShare,
            coreShare.utilisation(),
            settling && exactLimit >= before
                ? LimitRound.Held.SETTLING
                : elsewhere
                    ? LimitRound.Held.CORES_TAKEN_ELSEWHERE
                    : waitingForThreads
                        ? LimitRound.Held.WAITING_FOR_THREADS
                        : !floored
                            ? LimitRound.Held.NO
                            : keepsCoresBusy > throughputFloor
                                ? LimitRound.Held.KEEPING_CORES_BUSY
                                : LimitRound.Held.THROUGHPUT_FLOOR));
    return limit > old;
  }

  /**
   * Whether most of what a pressed window's permits were held went to waiting for a container
   * thread (round thread): the hand-overs of its completions (the permit given to a waiter, its
   * execution not yet started) outweigh their executions by more than {@link #SCALED_BUSY}
   * allows. A cut there shortens no execution; it only leaves the resource idle for longer.
   * After a cold start of a CPU-bound endpoint under a retry storm, windows at a limit of 5 and
   * 3 ran 0.4–0.5 of their permits and were cut to 1, where the server then served 2–10
   * requests a second for six seconds.
   *
   * <p>Whatever the executions' own p90. Guards that still cut windows whose executions missed
   * their target and queued on the cores were tried at a CPU-bound endpoint: at its capacity
   * one slow second cut the limit from 18–55 to 2–4, where the refusals' re-sent attempts kept
   * the cores too busy for it to come back (29–79 % refused); not kept, though runs of the rule
   * without a guard refused as much where the measured capacity was higher (docs/history.md).
   * Offered the same load, that endpoint read alike with and without this rule.
   *
   * <p>Both parts of the same completions, not the window's level nor hand-overs counted as
   * they end: where executions are long beside the window, requests admitted together complete
   * together, and a window between two such cohorts reads few executions under a full limit.
   */
  private boolean waitingForThreads(boolean wasPressed) {
    return wasPressed && executedNanos < SCALED_BUSY * (executedNanos + handedOverNanos);
  }

  /**
   * The requests in flight now over what the window's completions need by Little's law, their
   * rate times their targets (round thread; see {@link LimitWindow#backlog}); NaN without
   * completions.
   */
  private double backlog(long now) {
    double need = targetsNanos / Math.max(1, now - windowStartNanos);
    return need > 0 ? permits.inFlight() / need : Double.NaN;
  }

  /**
   * The requests the window's completions kept in flight on average, at most {@code limit} (round thread; see {@link CutCheck.Window#level}).
   */
  private double workLevel(long now, double limit) {
    return Math.min(limit, executedNanos / (double) Math.max(1, now - windowStartNanos));
  }

  /**
   * The window's median execution over the lowest median of recent windows (round thread), NaN
   * without samples. The lowest drifts up by {@link #BASELINE_DRIFT} a window, so that a
   * minimum from long ago (a quiet night, a faster downstream) is forgotten in tens of windows.
   */
  private double queueing(double median) {
    if (Double.isNaN(median)) {
      return Double.NaN;
    }
    baselineMedian = Math.min(baselineMedian * BASELINE_DRIFT, median);
    return median / baselineMedian;
  }

  /**
   * The p90 over its target that the class with the least slack would have had in this window:
   * its median execution plus the window's 90th percentile of every sample's execution less
   * its own class's median. NaN without samples.
   */
  private double predictedTightest() {
    if (deviationCount == 0) {
      predictedClasses = 0;
      return Double.NaN;
    }
    Arrays.sort(deviations, 0, deviationCount);
    long p90 = deviations[(int) Math.ceil(0.9 * deviationCount) - 1];
    double worst = Double.NaN;
    predictedClasses = 0;
    for (Partition p : byIndex) {
      if (p.medianExecution > 0
          && (windowCount - p.lastSampleWindow <= CLASS_MEMORY_WINDOWS
              || roundNanos - p.lastSampleNanos <= PREDICTION_MEMORY_NANOS)) {
        predictedClasses++;
        // A class served in this window ran at the level now; one between its responses ran at
        // the level of its last ones.
        double level = p.lastSampleWindow == windowCount ? 1.0 : p.levelFactor(limit);
        double predicted = p.medianExecution * level + p90 / (double) p.targetNanos;
        if (!(predicted <= worst)) {
          worst = predicted;
        }
      }
    }
    return worst;
  }

  /** One drained sample (round thread): into the window's histogram and its class's scale. */
  private void drained(long sample) {
    histogram.recordValue(Math.max(1L, sample & UNITS_MASK));
    boolean met = (sample & UNITS_MASK) <= RATIO_UNIT;
    if (met) {
      withinTarget++;
    }
    Partition[] indexed = byIndex;
    int i = (int) (sample >>> CLASS_SHIFT & CLASS_MASK);
    if (i < indexed.length) {
      Partition p = indexed[i];
      if (p.medianExecution > 0) {
        if (deviationCount == deviations.length) {
          deviations = Arrays.copyOf(deviations, deviationCount * 2);
        }
        deviations[deviationCount++] =
            Math.round(((sample & UNITS_MASK) / RATIO_UNIT - p.medianExecution) * p.targetNanos);
      }
      executedNanos += (sample & UNITS_MASK) / RATIO_UNIT * p.targetNanos;
      handedOverNanos += (sample >>> HAND_OVER_SHIFT) / HAND_OVER_UNIT * p.targetNanos;
      targetsNanos += p.targetNanos;
      if (met) {
        withinTargetNanos += p.targetNanos;
      }
      indexed[i].track(
          (sample & MISS_BIT) != 0, (sample & UNITS_MASK) / RATIO_UNIT, windowLevel, windowCount);
    }
  }

  /**
   * Steps every class's scale by its window's misses and meets. A window whose p90 was over
   * the target itself is cut by the group's own rule, and its misses say nothing about a
   * class's slack: counted, they sank every class to the floor in the start-up transient (a limit
   * still far too high), and a sparse class then held the limit down for tens of seconds until
   * enough of its own samples brought it back. Its meets still count.
   */
  private void stepScales(boolean overTarget) {
    for (Partition p : byIndex) {
      int sampled = p.windowMisses + p.windowMeets;
      p.recentSamples += sampled - p.recentSamples / CLASS_MEMORY_WINDOWS;
      if (sampled == 0) {
        continue;
      }
      double meet = p.recentSamples < SPARSE_SAMPLES ? SPARSE_MEET_STEP : MEET_STEP;
      double factor = Math.pow(meet, p.windowMeets);
      if (!overTarget) {
        factor *= Math.pow(MISS_STEP, p.windowMisses);
      }
      p.scale = Math.max(MIN_SCALE, Math.min(1.0, p.scale * factor));
      p.windowMisses = 0;
      p.windowMeets = 0;
    }
  }

  private double smallestScale() {
    double smallest = 1.0;
    for (Partition p : byIndex) {
      if (windowCount - p.lastSampleWindow <= CLASS_MEMORY_WINDOWS) {
        smallest = Math.min(smallest, p.scale);
      }
    }
    return smallest;
  }

  /**
   * The p90 of execution time over target of the last window that had samples (1.0 = on
   * target), NaN before the first: what the limit was last judged on.
   */
  public double lastP90OfTarget() {
    return lastP90OfTarget;
  }

  /**
   * The factor the setpoint is multiplied by for the class with the least slack (1 when every
   * class meets its target with room; see the class comment). Round state, read racily.
   */
  public double scale() {
    return scale;
  }

  private void markReached() {
    if (!reached) {
      reached = true;
    }
  }

  /** One request class's share of the group's limit. */
  public final class Partition {

    private final ClassDefinition requestClass;
    private final long targetNanos;
    private final long maxWaitNanos;
    private final int index;
    private final StripedCounts inFlightCount = new StripedCounts(1);

    /** Requests of this class waiting for a permit now. */
    private final AtomicInteger waiting = new AtomicInteger();

    /** The waiting room over the permits Little's law frees within the wait's bound. */
    private volatile double roomFactor = WAIT_ROOM;

    /** Round state: this class's own scale (see the group's class comment). */
    private double scale = 1.0;

    /** Round state: this window's responses of this class over and within its target. */
    private int windowMisses;

    /**
     * Round state: this class's samples over about the last {@value #CLASS_MEMORY_WINDOWS}
     * windows (an exponential sum).
     */
    private double recentSamples;

    private int windowMeets;

    /**
     * The running median of this class's execution times over its target (round thread
     * writes); 0 before the first sample.
     */
    private volatile double medianExecution;

    /** Round state: the first {@link #EXACT_MEDIAN_SAMPLES} executions over target, sorted. */
    private final double[] firstExecutions = new double[EXACT_MEDIAN_SAMPLES];

    /**
     * Round state: the mean in-flight level (the peak of their window, at most the limit) at
     * which this class's samples executed; 0 before the first.
     */
    private double meanLevel;

    /** Round state: how many of {@link #firstExecutions} are filled. */
    private int firstCount;

    /** The share of this class's recent responses over its target (round thread writes). */
    private volatile double missShare;

    /** Round state: samples tracked, up to {@link #MISS_SHARE_SAMPLES}. */
    private int tracked;

    /** Round state: the window of this class's last sample (none: far in the past). */
    private long lastSampleWindow = -CLASS_MEMORY_WINDOWS - 1;

    /** Round state: the time of the round that drained this class's last sample. */
    private long lastSampleNanos;

    /** What this class held at the last window's end (round state, read by acquirers). */
    private volatile int reserve;

    /** The reservations of higher-ranked classes at the last window's end. */
    private volatile int reservedAbove;

    private Partition(
        ClassDefinition requestClass, long targetNanos, long maxWaitNanos, int index) {
      this.index = index;
      this.requestClass = requestClass;
      this.targetNanos = targetNanos;
      this.maxWaitNanos = maxWaitNanos;
    }

    public ConcurrencyGroup group() {
      return ConcurrencyGroup.this;
    }

    public ClassDefinition requestClass() {
      return requestClass;
    }

    /** The class's target, which its executions are judged against. */
    public long targetNanos() {
      return targetNanos;
    }

    /** The longest a request of this class waits for a permit: derived from its target. */
    public long maxWaitNanos() {
      return maxWaitNanos;
    }

    /**
     * The longest a request of this class may wait for a permit now, at most {@code longest}:
     * the target less the class's median execution time, so that a request that could no
     * longer finish within its target is refused at its deadline instead of being served
     * late. At the sweep's sparse checkout pages (ten responses a step, whose p90 is their
     * largest but one) a request that waited the whole bound and then ran its median
     * execution ended at 1.2 × the target. Never under a quarter of {@code longest}: a limit
     * whose executions run over the target is about to be cut, and a waiter or two keep the
     * resource busy at each hand-over.
     */
    public long waitBoundNanos(long longest) {
      long finishable = targetNanos - Math.round(medianExecution * targetNanos);
      return Math.max(longest / 4, Math.min(longest, finishable));
    }

    /**
     * Whether a request of this class that found no permit should wait for one: whether fewer
     * of the class wait now than {@value #WAIT_ROOM} times the permits that free within the
     * wait's bound (Little's law: the limit over the class's median execution, times the
     * bound). A waiter past that number is refused at its deadline anyway, after its
     * suspension, timer and resumption have cost the cores it waits for: on a CPU-bound
     * endpoint of 2 ms against a 20 ms target, at twice the capacity with clients that re-send
     * at once, waits that ended in a refusal halved the goodput of a limit that refused at once
     * (the workload matrix). True before the class's first sample.
     *
     * <p>While the machine's cores are saturated the factor learns from the waiters' ends
     * ({@link #waiterRemoved(boolean)}), down to one waiter. Little's law counts the permits
     * that free, not who takes them: with the browsing queues LIFO under overload, a new
     * arrival goes on top and the waiters under it are refused at their deadline. On the
     * CPU-bound endpoint six waits in ten ended so, 800–900 a second, each a suspension and a
     * resumption taken from the requests being served. Where the cores are not the resource
     * (the shop's database) a waiter costs nothing while it waits and the full room keeps one
     * at every hand-over; narrowed there, the shop-like simulation lost goodput at 1.4 times
     * its capacity.
     *
     * <p>No room at all while the group's executions are what takes the saturated cores ({@link
     * CoreShare#limitToKeepBusy}): a waiter there waits for cores the executions in flight
     * already use, so it frees none of them, and its wait lengthens the response times the
     * limit is cut for. On the CPU-bound endpoint (2 ms of CPU against a 20 ms target), seven
     * runs against six of the code before: at its capacity a median of 6 % of the attempts
     * refused against 29 % (clients that honour {@code Retry-After}) and 29 % against 60 %
     * (clients that re-send at once); at three times it 0.44 of the capacity served within the
     * target against 0.30, Netflix's Vegas limit 0.48 and 0.62 in the same runs. At three
     * times it under re-sent attempts the two read alike (something served in four runs of
     * thirteen against five of twelve, nothing wherever the load generator fell behind). Where
     * the executions wait on something else (a downstream pool, a container's threads, the shop's
     * database) the waiters keep that resource busy at every hand-over and the rule leaves them.
     */
    public boolean roomToWait() {
      if (executionsTakeCores) {
        return false;
      }
      double median = medianExecution;
      if (!(median > 0)) {
        return true;
      }
      double freed = limit * waitBoundNanos(maxWaitNanos) / (median * targetNanos);
      return waiting.get() < Math.max(1.0, Math.ceil(roomFactor * freed));
    }

    /** A request of this class began to wait. */
    public void waiterAdded() {
      waiting.incrementAndGet();
    }

    /** A request of this class stopped waiting because it was cancelled (its client left). */
    public void waiterRemoved() {
      waiting.decrementAndGet();
    }

    /**
     * A request of this class stopped waiting: it got its permit, or, when {@code expired}, it
     * was refused at its deadline. While the cores are saturated each expiry narrows the class's
     * waiting room by {@value #EXPIRED_ROOM_STEP} and each permit widens it by {@value
     * #RESUMED_ROOM_STEP}, so that about one waiter in twelve ends refused. Read and written
     * without a lock: a step lost to a race is one sample of many.
     */
    public void waiterRemoved(boolean expired) {
      waiting.decrementAndGet();
      if (coresSaturated) {
        double f = roomFactor;
        roomFactor =
            expired
                ? Math.max(LEAST_ROOM, f * EXPIRED_ROOM_STEP)
                : Math.min(WAIT_ROOM, f * RESUMED_ROOM_STEP);
      }
    }

    /** Requests of this class in the group executing now (a striped sum, not a snapshot). */
    public int inFlightNow() {
      return (int) Math.max(0L, inFlightCount.sum(0));
    }

    /**
     * Takes a permit if the group's in-flight count is under the limit less what higher
     * classes reserve and do not use; counted in {@code stripe} (the request's).
     */
    public boolean tryAcquire(int stripe) {
      int lim = limit;
      int leased = permits.lease(stripe, reservable(lim));
      if (leased > 0) {
        if (leased > peak) {
          peak = leased;
        }
        inFlightCount.add(stripe, 0, 1L);
        return true;
      }
      int heldBack = reservedAbove;
      boolean exact = heldBack == 0;
      boolean forfeited = false;
      for (; ; ) {
        int n = permits.committed();
        if (n >= lim - heldBack && n >= reservable(lim)) {
          if (!exact && n < lim) {
            // The fast bound counts higher classes' whole reservations; only near the limit
            // is it worth reading how much of them they actually use.
            heldBack = unusedAbove();
            exact = true;
            continue;
          }
          if (!forfeited) {
            // Permits lying in stripes' pockets are counted as taken: take them back first.
            forfeited = true;
            if (permits.forfeit() > 0) {
              continue;
            }
          }
          markReached();
          return false;
        }
        // Two acquirers may both see the last free permit; the CAS admits one.
        if (permits.tryCommit(n)) {
          if (n + 1 >= lim) {
            markReached();
          }
          if (n + 1 > peak) {
            peak = n + 1;
          }
          inFlightCount.add(stripe, 0, 1L);
          return true;
        }
      }
    }

    /** Whether {@link #tryAcquire} would succeed now (a hint: another thread may take it). */
    public boolean hasRoom() {
      int lim = limit;
      if (roomAt(permits.committed(), lim)) {
        return true;
      }
      // Permits pocketed by stripes at a higher limit count as taken until an acquirer takes
      // them back, which tryAcquire does before it refuses. The wait queues ask here before
      // they hand a permit to a waiter: counted as taken, they kept every waiter from an idle
      // group (the shop started at 4×: the limit fell from 200 to 22, the pockets held more,
      // and for 45 s nothing ran).
      int used = permits.inFlight();
      return used < permits.committed() && roomAt(used, lim);
    }

    private boolean roomAt(int n, int lim) {
      return n < reservable(lim)
          || n < lim - reservedAbove
          || reservedAbove > 0 && n < lim - unusedAbove();
    }

    private int unusedAbove() {
      int unused = 0;
      for (Partition p : partitions) {
        if (p.requestClass.rank() > requestClass.rank()) {
          unused += Math.max(0, p.reserve - p.inFlightNow());
        }
      }
      return unused;
    }

    /**
     * The share of this class's recent responses (wait included) over its target, an
     * average over about its last {@value #MISS_SHARE_SAMPLES} sampled responses; 0 before the
     * first. Over 0.1, the class's p90 is over its target.
     */
    public double missShare() {
      return missShare;
    }

    /** One sample of this class, in the round: its miss and its execution over its target. */
    private void track(boolean missed, double execution, int level, long window) {
      double median = medianExecution;
      meanLevel =
          firstCount < EXACT_MEDIAN_SAMPLES
              ? meanLevel + (level - meanLevel) / (firstCount + 1)
              : meanLevel + (level - meanLevel) * LEVEL_STEP;
      if (firstCount < EXACT_MEDIAN_SAMPLES) {
        medianExecution = exactMedianWith(execution);
      } else if (execution != median) {
        // Stochastic approximation of the median (one multiplicative step a sample, up when
        // the sample is above, down when below), so that no window of samples is kept.
        medianExecution = execution > median ? median * MEDIAN_STEP : median / MEDIAN_STEP;
      }
      if (missed) {
        windowMisses++;
      } else {
        windowMeets++;
      }
      // An average of all samples until there are MISS_SHARE_SAMPLES, exponential after.
      tracked = Math.min(tracked + 1, MISS_SHARE_SAMPLES);
      missShare += ((missed ? 1.0 : 0.0) - missShare) / tracked;
      lastSampleWindow = window;
      lastSampleNanos = roundNanos;
    }

    /**
     * What this class's median execution becomes at {@code level} requests in flight: scaled
     * by (level + 1) / (its mean level + 1) when the level is higher than the one its
     * executions were measured at, else 1. On one bottleneck an execution is about the work
     * of the requests in flight with it; the + 1 stands for the class's own work, which does
     * not grow with the level.
     */
    private double levelFactor(double level) {
      return meanLevel > 0 ? Math.max(1.0, (level + 1) / (meanLevel + 1)) : 1.0;
    }

    /** Inserts {@code execution} into the sorted first executions; their median. */
    private double exactMedianWith(double execution) {
      int i = firstCount++;
      for (; i > 0 && firstExecutions[i - 1] > execution; i--) {
        firstExecutions[i] = firstExecutions[i - 1];
      }
      firstExecutions[i] = execution;
      int middle = firstCount / 2;
      return firstCount % 2 == 1
          ? firstExecutions[middle]
          : (firstExecutions[middle - 1] + firstExecutions[middle]) / 2;
    }

    /**
     * Notes that a request of this class waits for a permit (of this limit or of the wait
     * queues' own): the window was pressed even if the limit was not what held it.
     */
    public void markWaited() {
      if (!pressed) {
        pressed = true;
      }
    }

    /** Returns a permit taken by {@link #tryAcquire}. */
    public void release(int stripe) {
      inFlightCount.add(stripe, 0, -1L);
      permits.release(stripe, reservable(limit));
    }

    /**
     * Records one request of this class that held a permit: its execution time (from its
     * start on a thread to its completion, its waits excluded), which the limit is judged on,
     * its response time (waits included), which tells whether it met its class's target, and
     * for a request that waited, its hand-over (from the permit given to it to its execution's
     * start: the wait for a container thread to resume it on, see {@link #waitingForThreads}).
     * Runs the window's round when it is due. Returns whether the limit rose, so that the
     * caller can hand the new permits to waiters.
     *
     * <p>A wait longer than this class's {@link #maxWaitNanos} counts as that bound: only a
     * request that somebody chose to hold longer (an admitted session's, whose refusal would
     * lose the whole session) waits so long, and the limit, which cannot shorten that wait,
     * must not shrink for its late response.
     */
    public boolean record(
        long executionNanos, long responseNanos, long handOverNanos, long now, int stripe) {
      long units =
          Math.max(
              1L, Math.min(MAX_RATIO_UNITS, Math.round(executionNanos * RATIO_UNIT / targetNanos)));
      long handOverUnits =
          Math.max(
              0L,
              Math.min(
                  MAX_HAND_OVER_UNITS, Math.round(handOverNanos * HAND_OVER_UNIT / targetNanos)));
      long extendedWait = Math.max(0L, responseNanos - executionNanos - maxWaitNanos);
      long judged = responseNanos - extendedWait;
      long sample =
          units
              | (judged > targetNanos ? MISS_BIT : 0L)
              | (long) index << CLASS_SHIFT
              | handOverUnits << HAND_OVER_SHIFT;
      long written = samples.add(stripe & (Stripes.COUNT - 1), sample);
      long elapsed = now - windowStartNanos;
      boolean due =
          (written % SUM_EVERY) == 0
              && (elapsed >= windowNanos && dueByTime(elapsed)
                  || elapsed >= MIN_WINDOW_NANOS && samples.pending() >= windowSamples);
      return due && runRoundIfFree(now);
    }

    /**
     * A sampled execution of {@code wallNanos} that took {@code cpuNanos} of its thread's CPU
     * time (request threads), for {@link CoreShare}.
     */
    public void recordCpu(long cpuNanos, long wallNanos) {
      coreShare.addExecution(cpuNanos, wallNanos, targetNanos);
    }

    /** As {@link #record(long, long, long, long, int)} for a request without a hand-over. */
    public boolean record(long executionNanos, long responseNanos, long now, int stripe) {
      return record(executionNanos, responseNanos, 0L, now, stripe);
    }

    /** As {@link #record(long, long, long, long, int)} for a request that did not wait. */
    public boolean record(long executionNanos, long now, int stripe) {
      return record(executionNanos, executionNanos, 0L, now, stripe);
    }
  }
}
