package org.overloadcontrol.internal.measure;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;
import org.overloadcontrol.internal.base.Stripes;

/**
 * The response-time measurement of one request class at one endpoint: the 90th percentile of
 * each window of samples and its smoothed estimate, as Welsh &amp; Culler's p90 response-time
 * admission controller measures it (Adaptive Overload Control for Busy Internet Servers, USITS
 * 2003, §3.2): a window closes after nreq samples or a timeout with fewer, its samples' 90th
 * percentile is {@code samp}, and
 *
 * <pre>
 *   cur = α·cur + (1−α)·samp
 * </pre>
 *
 * <p>Every class has one, whether or not the rate controller controls it: the status, the
 * metrics, the overload watch and the request's context read its estimate, and the rate
 * controller judges its rounds on it. Whoever runs the windows (the endpoint's rate controller,
 * under its round guard) closes one with {@link #closeWindow} and folds its p90 into the
 * estimate with {@link #fold}.
 *
 * <p>The paper sorts up to nreq samples and takes the (0.9·nreq)-th; request threads put the
 * samples in a {@link SampleBuffer} (two plain stores), and a window's close moves them into
 * an HdrHistogram (two significant digits) and reads its 90th percentile: the same statistic
 * without a lock or a sort on the request path. Two digits (1 %) are far finer than the
 * controller's dead band (err_i = −0.5 to err_d = 0), and every window clears the histogram's
 * counts, which with three digits are 8× as many (see docs/performance.md). The first window's
 * estimate is its sample (the paper leaves the initial {@code cur} open), and so is the first
 * after {@link #restartEstimate}.
 *
 * <p>Stale samples (when built with {@code marksStale}; the rate controller's fresh samples,
 * not in the paper): after {@link #markStale}, a sample of a request that arrived before the
 * mark is only counted as stale (one compare on the request path, and a count in the thread's
 * own stripe), not measured.
 *
 * <p>Sampling (not in the paper): above {@link #TARGET_SAMPLES_PER_SECOND} completions a
 * second, each completion is recorded with probability p = target / completions per second,
 * decided before anything shared is touched, so that a completion that is not recorded writes
 * no shared memory: by the engine at arrival from the arrival's number
 * ({@link #drawSample(long, int)}), or by {@link ThreadLocalRandom} for a completion reported
 * without one ({@link #drawSample()}). A random sample of the completions has the same p90 as
 * all of them (within the sampling error of the nreq samples a window takes, as in the paper's
 * own rounds). Stale samples are sampled with the same p as fresh ones, so their ratio holds;
 * what means "requests" (the completions per second of the rate controller's throughput floor,
 * see {@link #completionsPerSecond}) is scaled by 1/p. Each window recomputes p from its counts
 * and its length; with p = 1 (every rate below the target) nothing differs from recording every
 * sample.
 *
 * <p>Concurrency: {@link #drawSample} and {@link #recordDrawn} run on request threads. A sample
 * goes to its request's stripe of the {@link SampleBuffer}, so request threads on different
 * stripes share no written memory. Everything else ({@code cur}, the histogram) is touched only
 * by {@link #closeWindow} and {@link #fold}, which run one at a time.
 */
public final class P90Estimator {

  private static final int SUM_EVERY = 4;

  /** The shortest window that a count of samples closes (see {@link #recordDrawn}). */
  static final long MIN_WINDOW_NANOS = 10_000_000L;

  /** The histogram's range: 1 µs to an hour, longer times recorded as an hour. */
  static final long MAX_RECORDED_MICROS = 3_600_000_000L;

  private static final long NO_MARK_AGE_NANOS = 1L << 62;

  /**
   * Recorded samples a second a class aims for when it completes more: p = min(1, this /
   * completions per second). Every window closed by time only (one per timeout, 1 s) still
   * gets about 2,000 samples, whose p90 is within a few percent of the true one, and a window of
   * nreq = 100 samples still fills every 50 ms, twenty reactions a second, faster than a
   * queue's response times change. Why sample at all (issue 9): on a real server each recorded
   * completion writes recorder lines that the container's threads share across cores; in JMH,
   * skipping those writes took the engine's admit+complete from about 155 to 134 ns on one
   * thread (docs/sampling.md).
   */
  public static final int TARGET_SAMPLES_PER_SECOND = 2_000;

  /** The scale of {@link #sampleThreshold}: a power of two, for a fast bounded nextInt. */
  static final int SAMPLE_ALL = 1 << 24;

  private static final int SAMPLE_BITS = Integer.numberOfTrailingZeros(SAMPLE_ALL);

  /** The timeout: a window closes this long after the last at the latest. */
  private final long windowNanos;

  /** Samples that close a window before its timeout, 0 for windows by time alone. */
  private final int nreq;

  /** The weight of the old estimate, α. */
  private final double alpha;

  /** Whether samples from before a {@link #markStale} mark are kept out of the windows. */
  private final boolean marksStale;

  /**
   * The samples since the last window, striped so that writers on different stripes share no
   * cache line. Their count is summed only every {@link #SUM_EVERY} samples of a stripe.
   */
  private final SampleBuffer samples = new SampleBuffer();

  /**
   * Requests that arrived before this time are stale. Read by every sample. "No mark" is a time
   * 2^62 ns (146 years) in the past, so that the overflow-safe difference {@code arrival − mark}
   * stays positive without a second field.
   */
  private volatile long staleBeforeNanos;

  /**
   * A completion is recorded when {@code nextInt(SAMPLE_ALL) < sampleThreshold}; at
   * {@link #SAMPLE_ALL} (p = 1) every one is, without drawing a number. Written only by window
   * closes, read by every completion: a field that changes at most once per window, so its
   * cache line stays shared.
   */
  private volatile int sampleThreshold = SAMPLE_ALL;

  private volatile long lastWindowNanos;

  /** The earliest time a window may close because nreq samples are waiting. */
  private volatile long countedWindowAllowedNanos;

  private volatile long estimateNanos = -1;
  private volatile long lastSampleP90Nanos = -1;

  // Window state: closeWindow and fold run one at a time.
  private final Histogram recycled = new Histogram(1, MAX_RECORDED_MICROS, 2);
  private final LongConsumer intoRecycled = recycled::recordValue;
  private double cur = Double.NaN;

  /** Completions per second in the last window, fresh and stale, scaled by 1/p. */
  private double completionsPerSecond;

  /**
   * Set by {@link #restartEstimate}: the next window with samples starts the estimate from
   * them. Volatile because a restart may come outside the windows' guard.
   */
  private volatile boolean restartEstimate;

  /**
   * @param windowNanos the timeout: a window closes this long after the last at the latest
   * @param nreq the samples that close a window before its timeout, 0 for windows by time alone
   * @param alpha the weight of the old estimate in the smoothed one, α
   * @param marksStale whether {@link #markStale} keeps earlier arrivals' samples out
   * @param now the clock's reading: the first window starts here
   */
  public P90Estimator(long windowNanos, int nreq, double alpha, boolean marksStale, long now) {
    this.windowNanos = windowNanos;
    this.nreq = nreq;
    this.alpha = alpha;
    this.marksStale = marksStale;
    this.staleBeforeNanos = now - NO_MARK_AGE_NANOS;
    this.lastWindowNanos = now;
    this.countedWindowAllowedNanos = now;
  }

  /** The smoothed 90th-percentile estimate, or −1 before the first window with samples. */
  public long estimateNanos() {
    return estimateNanos;
  }

  /** The 90th percentile of the last window's samples, or −1 before the first one. */
  public long lastSampleP90Nanos() {
    return lastSampleP90Nanos;
  }

  /**
   * Records one response time; returns whether nreq samples are now waiting for a window's
   * close. Counted windows close at most once per {@link #MIN_WINDOW_NANOS}: only above 10,000
   * requests a second per class would nreq samples arrive faster, and there a window every
   * 10 ms over more samples is as good a measurement (and still a hundred reactions a second),
   * while a round per 100 requests was measured to take most of the time of two request
   * threads, and a round per millisecond a third of the filter's cost on a trivial servlet.
   */
  public boolean record(long responseTimeNanos, long arrivalNanos, long now) {
    return drawSample() && recordDrawn(responseTimeNanos, arrivalNanos, now);
  }

  /**
   * Whether the completion now being reported is one of the sampled ones (always, at p = 1,
   * without drawing a number). Drawn before the response time is known, so that an adapter
   * need not read the clock for a completion that will not be recorded; and before the stale
   * check, so that stale and fresh samples share one p.
   */
  public boolean drawSample() {
    int threshold = sampleThreshold;
    return threshold >= SAMPLE_ALL || ThreadLocalRandom.current().nextInt(SAMPLE_ALL) < threshold;
  }

  /**
   * {@link #drawSample()} for the {@code arrivalNumber}-th arrival counted in {@code stripe}:
   * the draw is SplitMix64's output (Steele, Lea &amp; Flood 2014) for that arrival's index,
   * a pseudo-random number that needs no per-thread state. Independent of the response time,
   * as a sample must be; drawn at arrival, so the completion of an unsampled request touches
   * nothing of the sampler.
   */
  public boolean drawSample(long arrivalNumber, int stripe) {
    int threshold = sampleThreshold;
    if (threshold >= SAMPLE_ALL) {
      return true;
    }
    long z = (arrivalNumber * Stripes.COUNT + (stripe & (Stripes.COUNT - 1))) * 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    z ^= z >>> 31;
    // The top bits: uniform in [0, SAMPLE_ALL).
    return (int) (z >>> (64 - SAMPLE_BITS)) < threshold;
  }

  /** {@link #record} of a completion that {@link #drawSample} chose, from the caller's stripe. */
  public boolean recordDrawn(long responseTimeNanos, long arrivalNanos, long now) {
    return recordDrawn(responseTimeNanos, arrivalNanos, now, Stripes.index());
  }

  /** {@link #record} of a completion that was drawn as a sample, into {@code stripe}. */
  public boolean recordDrawn(long responseTimeNanos, long arrivalNanos, long now, int stripe) {
    stripe &= Stripes.COUNT - 1;
    if (marksStale && arrivalNanos - staleBeforeNanos < 0) {
      // Admitted at the rate before the last cut: it says nothing about the current rate. Only
      // counted, so a window can tell "stale only" from "no samples".
      samples.countStale(stripe);
      return false;
    }
    long written =
        samples.add(stripe, Math.max(0L, Math.min(MAX_RECORDED_MICROS, responseTimeNanos / 1000L)));
    if (nreq == 0) {
      // Windows by time alone: nothing reacts to a count, so they come one per timeout and the
      // request path skips the count (measured: counted rounds every millisecond were a third
      // of the filter's own cost on a trivial servlet).
      return false;
    }
    // With one writer the sum is exact at every multiple of SUM_EVERY (the published nreq of
    // 100 is one); with several, a window may close up to SUM_EVERY samples per stripe late.
    return (written % SUM_EVERY) == 0
        && now - countedWindowAllowedNanos >= 0
        && samples.pending() >= nreq;
  }

  /** Whether the timeout has passed since the last window (read on every arrival: cheap). */
  public boolean dueByTime(long now) {
    return now - lastWindowNanos >= windowNanos;
  }

  /** Whether a window is due by count or by time (read under the windows' guard). */
  public boolean due(long now) {
    return dueByTime(now) || nreq > 0 && samples.pending() >= nreq;
  }

  /**
   * Closes the window; returns the p90 of its samples, or −1 if none. {@code countOut[0]} gets
   * their count, {@code countOut[1]} the count of stale samples (arrived before the last mark)
   * left out of them, {@code countOut[2]} the window's length in nanoseconds. Both counts are of
   * recorded samples; {@link #completionsPerSecond} is what they mean in requests. Recomputes
   * the sampling probability for the next window. The estimate takes the p90 only at
   * {@link #fold}.
   */
  public long closeWindow(long now, long[] countOut) {
    recycled.reset();
    long[] drained = samples.drain(intoRecycled);
    countOut[0] = drained[0];
    countOut[1] = drained[1];
    countOut[2] = now - lastWindowNanos;
    lastWindowNanos = now;
    countedWindowAllowedNanos = now + MIN_WINDOW_NANOS;
    resample(countOut[0] + countOut[1], countOut[2]);
    if (recycled.getTotalCount() == 0) {
      return -1;
    }
    long p90 = recycled.getValueAtPercentile(90.0) * 1000L;
    lastSampleP90Nanos = p90;
    return p90;
  }

  /**
   * Folds a window's p90 {@code samp} into the estimate, cur = α·cur + (1−α)·samp, or cur =
   * samp for the first window with samples and the first after {@link #restartEstimate};
   * returns the estimate in nanoseconds, NaN before the first window with samples. A window
   * without samples ({@code samp} &lt; 0) changes nothing.
   */
  public double fold(long samp) {
    if (samp < 0) {
      return cur;
    }
    boolean restart = restartEstimate;
    cur = restart || Double.isNaN(cur) ? samp : alpha * cur + (1 - alpha) * samp;
    if (restart) {
      restartEstimate = false;
    }
    estimateNanos = Math.round(cur);
    return cur;
  }

  /** The next window with samples starts the estimate from its p90 alone. */
  public void restartEstimate() {
    restartEstimate = true;
  }

  /**
   * From now on, samples of requests that arrived before {@code now} are stale: counted, not
   * measured (only when built with {@code marksStale}).
   */
  public void markStale(long now) {
    staleBeforeNanos = now;
  }

  /** Forgets the last {@link #markStale}: every sample is measured again. */
  public void clearStaleMark(long now) {
    staleBeforeNanos = now - NO_MARK_AGE_NANOS;
  }

  /**
   * Scales the window's recorded samples by 1/p into completions per second, and sets p for the
   * next window from them. A window shorter than {@link #MIN_WINDOW_NANOS} (the first counted
   * one, or a timeout that short) leaves p as it is: over so short a time a burst of
   * completions says little about the rate.
   */
  private void resample(long recordedCount, long elapsedNanos) {
    double p = sampleThreshold / (double) SAMPLE_ALL;
    completionsPerSecond = recordedCount / p * 1e9 / Math.max(1, elapsedNanos);
    if (elapsedNanos >= MIN_WINDOW_NANOS) {
      double next = Math.min(1.0, TARGET_SAMPLES_PER_SECOND / completionsPerSecond);
      sampleThreshold =
          next >= 1.0 ? SAMPLE_ALL : (int) Math.max(1L, Math.round(next * SAMPLE_ALL));
    }
  }

  /**
   * Requests of this class completed per second over the last window, fresh and stale: its
   * recorded samples scaled by 1/p (window state, read under the windows' guard).
   */
  public double completionsPerSecond() {
    return completionsPerSecond;
  }

  /**
   * The probability with which a completion of this class is recorded now: 1 up to
   * {@link #TARGET_SAMPLES_PER_SECOND} completions a second, that rate over the completions
   * above it.
   */
  public double samplingProbability() {
    return sampleThreshold / (double) SAMPLE_ALL;
  }
}
