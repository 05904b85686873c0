package org.overloadcontrol.internal.admission;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Stripes;

/**
 * The response-time controller of one request class at one endpoint (Welsh &amp; Culler 2003,
 * §3.2): it collects response-time samples, and in each round turns their 90th percentile into
 * a smoothed estimate and the estimate into a token-bucket rate.
 *
 * <pre>
 *   cur = α·cur + (1−α)·samp          err = (cur − target) / target
 *   err &gt; err_d : rate = rate / adj_d
 *   err &lt; err_i : rate = rate + (−(err − c_i))·adj_i       rate ∈ [rate_min, rate_max]
 * </pre>
 *
 * <p>The paper sorts up to nreq samples and takes the (0.9·nreq)-th; request threads put the
 * samples in a {@link SampleBuffer} (two plain stores), and the round moves them into an
 * HdrHistogram (two significant digits) and reads its 90th percentile: the same statistic
 * without a lock or a sort on the request path. Two digits (1 %) are far finer than the
 * controller's dead band (err_i = −0.5 to err_d = 0), and every round clears the histogram's
 * counts, which with three digits are 8× as many (see docs/performance.md).
 * The first round's estimate is its sample (the paper leaves the initial {@code cur} open).
 *
 * <p>Fresh samples ({@link ControllerParameters#judgeOnFreshSamples()}, on by default, not in
 * the paper): a round that cuts this class's rate marks the time of the cut; a sample of a
 * request that arrived before the mark measures the old rate, so it is only counted as stale
 * (one compare on the request path, and a count in the thread's own stripe), and the next
 * round with fresh samples restarts the estimate from their p90. See
 * {@link EndpointAdmissionController} for the round's rules.
 *
 * <p>Sampling (not in the paper): above {@link #TARGET_SAMPLES_PER_SECOND} completions a
 * second, each completion is recorded with probability p = target / completions per second,
 * decided before anything shared is touched, so that a completion that is not recorded writes
 * no shared memory: by the engine at arrival from the arrival's number
 * ({@link #drawSample(long, int)}), or by {@link ThreadLocalRandom} for a completion reported
 * without one ({@link #drawSample()}). A random sample of the completions has the
 * same p90 as all of them (within the sampling error of the nreq samples a round takes, as in
 * the paper's own rounds). Stale samples are sampled with the same p as fresh ones, so their
 * ratio holds; what means "requests" (the completions per second of the throughput floor,
 * see {@link #completionsPerSecond}) is scaled by 1/p. Each round recomputes p from its
 * counts and the time since the last round; with p = 1 (every rate below the target) nothing
 * differs from recording every sample.
 *
 * <p>Concurrency: {@link #record} and {@link #tryAcquire} run on request threads. A sample goes
 * to its request's stripe of the {@link SampleBuffer}, so request threads on different
 * stripes share no written memory there; only the token bucket's CAS is shared by every admitted
 * request, as any rate limit must be. Everything else ({@code cur}, {@code lc}, the flag, the
 * histograms merged at each round) is touched only by the round, which the owning
 * {@link EndpointAdmissionController} runs under its guard, one round at a time.
 */
public final class ClassController {

  private static final int SUM_EVERY = 4;
  private static final long MIN_ROUND_INTERVAL_NANOS = 10_000_000L;

  /** The histogram's range: 1 µs to an hour, longer times recorded as an hour. */
  static final long MAX_RECORDED_MICROS = 3_600_000_000L;

  private static final long NO_CUT_AGE_NANOS = 1L << 62;

  /**
   * Recorded samples a second a class aims for when it completes more: p = min(1, this /
   * completions per second). Every measured-only round (one per timeout, 1 s) still gets
   * about 2,000 samples, whose p90 is within a few percent of the true one, and a controlled
   * class still fills a round of nreq = 100 samples every 50 ms, twenty reactions a second,
   * faster than a queue's response times change. Why sample at all (issue 9): on a real
   * server each recorded completion writes recorder lines that the container's threads share
   * across cores; in JMH, skipping those writes took the engine's admit+complete from about
   * 155 to 134 ns on one thread (docs/sampling.md).
   */
  public static final int TARGET_SAMPLES_PER_SECOND = 2_000;

  /** The scale of {@link #sampleThreshold}: a power of two, for a fast bounded nextInt. */
  static final int SAMPLE_ALL = 1 << 24;

  private static final int SAMPLE_BITS = Integer.numberOfTrailingZeros(SAMPLE_ALL);

  private final String endpoint;
  private final ClassDefinition requestClass;
  private final ClassSettings settings;

  /** The settings' timeout, kept here: every arrival reads it, next to lastRoundNanos. */
  private final long timeoutNanos;

  private final TokenBucket bucket;

  /**
   * The samples since the last round, striped so that writers on different stripes share no
   * cache line. Their count is summed only every {@link #SUM_EVERY} samples of a stripe.
   */
  private final SampleBuffer samples = new SampleBuffer();

  /** Whether samples from before the last cut are kept out of the rounds. */
  private final boolean freshOnly;

  /**
   * Requests that arrived before this time are stale. Written only by rounds (under the
   * endpoint's guard) and by {@link EndpointAdmissionController#restartRate}; read by every
   * sample. "No cut yet" is a time 2^62 ns (146 years) in the past, so that the
   * overflow-safe difference {@code arrival − cut} stays positive without a second field.
   */
  private volatile long cutNanos;

  /**
   * A completion is recorded when {@code nextInt(SAMPLE_ALL) < sampleThreshold}; at
   * {@link #SAMPLE_ALL} (p = 1) every one is, without drawing a number. Written only by rounds
   * (under the endpoint's guard), read by every completion: a field that changes at most once
   * per round, so its cache line stays shared.
   */
  private volatile int sampleThreshold = SAMPLE_ALL;

  private volatile long lastRoundNanos;

  /** The earliest time a round may start because nreq samples are waiting. */
  private volatile long countedRoundAllowedNanos;

  private volatile long estimateNanos = -1;
  private volatile long lastSampleP90Nanos = -1;
  // Round state: guarded by the endpoint controller's round guard.
  private final Histogram recycled = new Histogram(1, MAX_RECORDED_MICROS, 2);
  private final java.util.function.LongConsumer intoRecycled = recycled::recordValue;

  /** Whether rounds also come every nreq samples (controlled classes), not only by time. */
  private final boolean counted;

  private double cur = Double.NaN;
  private int lc;
  private boolean suppressIncrease;

  /** The rate before a higher class first cut this one, NaN if none since (round state). */
  private double rateBeforeCutFromAbove = Double.NaN;

  /** When a round last saw samples, fresh or stale (round state, read by other classes'). */
  private volatile long sampledAtNanos;

  /** The class's requests admitted and not yet answered, or null when nobody counts them. */
  private volatile LongSupplier inFlight;

  /** How stale the time of the last refusal may be: it is written at most this often. */
  private static final long REJECTED_AT_GRAIN_NANOS = 1_000_000L;

  /** About when the bucket last refused an arrival (set by request threads, see above). */
  private volatile long rejectedAtNanos;

  /** Whether the bucket refused an arrival since the last round (set by request threads). */
  private volatile boolean rejected;

  /**
   * Set by a cut: the next round with fresh samples starts the estimate from them. Volatile
   * because {@link EndpointAdmissionController#restartRate} sets it outside the round guard.
   */
  private volatile boolean restartEstimate;

  /**
   * Consecutive rounds that saw only stale samples. A restart outside the round guard may race
   * with a round over it; either result is a count off by one, which shifts when a cut is
   * forgotten by a round.
   */
  private int staleRoundCount;

  /** Completions per second in the last round, fresh and stale, scaled by 1/p (round state). */
  private double completionsPerSecond;

  ClassController(String endpoint, ClassDefinition requestClass, ClassSettings settings, long now) {
    this.endpoint = endpoint;
    this.requestClass = requestClass;
    this.settings = settings;
    ControllerParameters p = settings.parameters();
    // Judging on fresh samples, a bucket holds at most a round of its rate (see TokenBucket).
    this.bucket =
        new TokenBucket(
            p.initialRate(),
            p.bucketDepth(),
            now,
            p.judgeOnFreshSamples() && settings.controlled() ? p.timeoutNanos() : 0L);
    this.counted = settings.controlled();
    this.timeoutNanos = p.timeoutNanos();
    this.freshOnly = p.judgeOnFreshSamples() && settings.controlled();
    this.cutNanos = now - NO_CUT_AGE_NANOS;
    this.lastRoundNanos = now;
    this.countedRoundAllowedNanos = now;
    this.sampledAtNanos = now;
    this.rejectedAtNanos = now - NO_CUT_AGE_NANOS;
  }

  public String endpoint() {
    return endpoint;
  }

  public ClassDefinition requestClass() {
    return requestClass;
  }

  public ClassSettings settings() {
    return settings;
  }

  /** Whether the class has a target (its settings' {@code controlled()}, read on every arrival). */
  public boolean controlled() {
    return counted;
  }

  /** The p90 target in nanoseconds, 0 if this class is measured but not controlled. */
  public long targetNanos() {
    return settings.targetNanos();
  }

  /** The smoothed 90th-percentile estimate, or −1 before the first round with samples. */
  public long estimateNanos() {
    return estimateNanos;
  }

  /** The 90th percentile of the last round's samples, or −1 before the first one. */
  public long lastSampleP90Nanos() {
    return lastSampleP90Nanos;
  }

  /** The current admission rate in requests per second (meaningful only when controlled). */
  public double rate() {
    return bucket.rate();
  }

  /** The lc counter of §3.3 (rounds missed while all lower classes sat at rate_min). */
  public int lowerAtMinCount() {
    return lc;
  }

  /**
   * Tells the rounds how many of this class's requests are in flight: counted from arrival,
   * before admission decides them (as the engine counts), until their outcome, refused ones
   * excepted. The round an arrival runs leaves that arrival out. Read by rounds only, from
   * counts the caller keeps anyway. Without it the rate controller's resource group cannot see
   * its queue before the requests in it complete.
   */
  public void countInFlight(LongSupplier requestsInFlight) {
    this.inFlight = requestsInFlight;
  }

  /** The class's requests in flight, or −1 when nobody counts them (round state). */
  long inFlight() {
    LongSupplier s = inFlight;
    return s == null ? -1L : Math.max(0L, s.getAsLong());
  }

  /** Nanoseconds until this class's bucket has a token. */
  public long nanosUntilToken(long now) {
    return bucket.nanosUntilToken(now);
  }

  boolean tryAcquire(long now, int stripe) {
    return bucket.tryAcquire(now, stripe);
  }

  /**
   * Records one response time; returns whether nreq samples are now waiting for a round.
   * Counted rounds come at most once per {@link #MIN_ROUND_INTERVAL_NANOS}: only above 10,000
   * requests a second per class would nreq samples arrive faster, and there a round every
   * 10 ms over more samples is as good a measurement (and still a hundred reactions a second),
   * while a round per 100 requests was measured to take most of the time of two request
   * threads, and a round per millisecond a third of the filter's cost on a trivial servlet.
   */
  boolean record(long responseTimeNanos, long arrivalNanos, long now) {
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
  boolean recordDrawn(long responseTimeNanos, long arrivalNanos, long now) {
    return recordDrawn(responseTimeNanos, arrivalNanos, now, Stripes.index());
  }

  /** {@link #record} of a completion that was drawn as a sample, into {@code stripe}. */
  boolean recordDrawn(long responseTimeNanos, long arrivalNanos, long now, int stripe) {
    stripe &= Stripes.COUNT - 1;
    if (freshOnly && arrivalNanos - cutNanos < 0) {
      // Admitted at the rate before the last cut: it says nothing about the current rate. Only
      // counted, so a round can tell "stale only" from "no samples".
      samples.countStale(stripe);
      return false;
    }
    long written =
        samples.add(stripe, Math.max(0L, Math.min(MAX_RECORDED_MICROS, responseTimeNanos / 1000L)));
    if (!counted) {
      // Measured only: nothing reacts to its rounds, so they come by time alone (one per
      // timeout) and the request path skips the count (measured: counted rounds every
      // millisecond were a third of the filter's own cost on a trivial servlet).
      return false;
    }
    // With one writer the sum is exact at every multiple of SUM_EVERY (the published nreq of
    // 100 is one); with several, a round may start up to SUM_EVERY samples per stripe late.
    return (written % SUM_EVERY) == 0
        && now - countedRoundAllowedNanos >= 0
        && samples.pending() >= settings.parameters().nreq();
  }

  /** Whether the timeout has passed since the last round (read on every arrival: cheap). */
  boolean dueByTime(long now) {
    return now - lastRoundNanos >= timeoutNanos;
  }

  /** Whether a round is due by count or by time (read under the round guard). */
  boolean due(long now) {
    return dueByTime(now) || counted && samples.pending() >= settings.parameters().nreq();
  }

  /**
   * Flips the recorder; returns the p90 of the samples since the last flip, or −1 if none.
   * {@code countOut[0]} gets their count, {@code countOut[1]} the count of stale samples
   * (arrived before the last cut) left out of them, {@code countOut[2]} the nanoseconds since
   * the previous round. Both counts are of recorded samples; {@link #completionsPerSecond} is
   * what they mean in requests. Recomputes the sampling probability for the next round.
   */
  long takeSampleP90(long now, long[] countOut) {
    recycled.reset();
    long[] drained = samples.drain(intoRecycled);
    countOut[0] = drained[0];
    countOut[1] = drained[1];
    countOut[2] = now - lastRoundNanos;
    lastRoundNanos = now;
    countedRoundAllowedNanos = now + MIN_ROUND_INTERVAL_NANOS;
    resample(countOut[0] + countOut[1], countOut[2]);
    if (recycled.getTotalCount() == 0) {
      return -1;
    }
    long p90 = recycled.getValueAtPercentile(90.0) * 1000L;
    lastSampleP90Nanos = p90;
    return p90;
  }

  /**
   * Scales the round's recorded samples by 1/p into completions per second, and sets p for the
   * next round from them. A round less than {@link #MIN_ROUND_INTERVAL_NANOS} after the last
   * one (the first counted round, or a timeout that short) leaves p as it is: over so short a
   * time a burst of completions says little about the rate.
   */
  private void resample(long recordedCount, long elapsedNanos) {
    double p = sampleThreshold / (double) SAMPLE_ALL;
    completionsPerSecond = recordedCount / p * 1e9 / Math.max(1, elapsedNanos);
    if (elapsedNanos >= MIN_ROUND_INTERVAL_NANOS) {
      double next = Math.min(1.0, TARGET_SAMPLES_PER_SECOND / completionsPerSecond);
      sampleThreshold =
          next >= 1.0 ? SAMPLE_ALL : (int) Math.max(1L, Math.round(next * SAMPLE_ALL));
    }
  }

  /**
   * Requests of this class completed per second over the last round, fresh and stale: its
   * recorded samples scaled by 1/p (round state, read under the endpoint's guard).
   */
  double completionsPerSecond() {
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

  /** The class's round state, as {@link RateRound} reads it (under the endpoint's guard). */
  RateRound.State roundState() {
    return new RateRound.State(
        bucket.rate(), cur, lc, staleRoundCount, restartEstimate, suppressIncrease, rejected);
  }

  /**
   * Applies what a round decided from {@code before} at {@code now}. The flags other threads
   * set ({@code rejected} by request threads, {@code restartEstimate} by a restart) are cleared
   * only when the round spent them, so that one set since {@code before} is not lost.
   */
  void apply(RateRound.State before, RateRound.Next next, long now) {
    RateRound.State s = next.state();
    if (s.rate() != before.rate()) {
      setRate(s.rate(), now);
    }
    if (!Double.isNaN(s.cur())) {
      cur = s.cur();
      estimateNanos = s.estimateNanos();
    }
    lc = s.lc();
    staleRoundCount = s.staleRounds();
    suppressIncrease = s.suppressIncrease();
    if (s.restartEstimate() != before.restartEstimate()) {
      restartEstimate = s.restartEstimate();
    }
    if (before.rejected() && !s.rejected()) {
      rejected = false;
    }
    if (next.cut()) {
      cutNanos = now;
    }
    if (next.forgetCut()) {
      cutNanos = now - NO_CUT_AGE_NANOS;
    }
  }

  void setRate(double rate, long now) {
    ControllerParameters p = settings.parameters();
    bucket.setRate(Math.max(p.rateMin(), Math.min(p.rateMax(), rate)), now);
  }

  /**
   * Marks a cut of this class's rate at {@code now} (when judging on fresh samples): requests
   * that arrived before it are stale, and the estimate restarts from the first fresh round.
   */
  void markCut(long now) {
    if (freshOnly) {
      cutNanos = now;
      restartEstimate = true;
      staleRoundCount = 0;
    }
  }

  /** The next round with samples starts the estimate from them. */
  void restartEstimate() {
    restartEstimate = true;
  }

  boolean atRateMin() {
    return bucket.rate() <= settings.parameters().rateMin();
  }

  void sampledAt(long now) {
    sampledAtNanos = now;
  }

  long sampledAtNanos() {
    return sampledAtNanos;
  }

  /**
   * When the class was last seen active: the latest of its last round with samples, a bound no
   * earlier than its bucket's last admission, and its bucket's last refusal. Samples alone come
   * late on a queued resource (a class whose requests wait 1.5 s has none for 15 rounds of
   * 100 ms), and a class judged idle on them gave its lower classes their rate back while it
   * was still sending. A class whose arrivals are refused is still there: its refused users
   * come back together after a pause (in the two-class case every 500 ms), and taken for gone
   * between two such waves it gave its rate to the lower classes each time.
   */
  long activeAtNanos() {
    long admitted = bucket.lastTakeBoundNanos();
    long latest = admitted - sampledAtNanos > 0 ? admitted : sampledAtNanos;
    long rejectedAt = rejectedAtNanos;
    return rejectedAt - latest > 0 ? rejectedAt : latest;
  }

  /** Remembers the rate before a higher class's cut, if none is remembered (fresh mode). */
  void rememberRateBeforeCutFromAbove() {
    if (freshOnly && Double.isNaN(rateBeforeCutFromAbove)) {
      rateBeforeCutFromAbove = rate();
    }
  }

  double rateBeforeCutFromAbove() {
    return rateBeforeCutFromAbove;
  }

  void forgetRateBeforeCutFromAbove() {
    rateBeforeCutFromAbove = Double.NaN;
  }

  /**
   * Notes that the bucket refused an arrival at {@code now}: a volatile write on the first
   * refusal after a round, and at most one a millisecond for the time of the last one.
   */
  void noteRejected(long now) {
    if (!rejected) {
      rejected = true;
    }
    if (now - rejectedAtNanos > REJECTED_AT_GRAIN_NANOS) {
      rejectedAtNanos = now;
    }
  }

  void suppressNextIncrease() {
    suppressIncrease = true;
  }

  /** Returns and clears the flag a higher class set when it missed its target. */
  boolean takeSuppressIncrease() {
    boolean flag = suppressIncrease;
    suppressIncrease = false;
    return flag;
  }
}
