package org.overloadcontrol.internal.admission;

import java.util.function.LongSupplier;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.measure.P90Estimator;

/**
 * The response-time controller of one request class at one endpoint (Welsh &amp; Culler 2003,
 * §3.2): in each round it turns the class's smoothed p90 estimate into a token-bucket rate.
 *
 * <pre>
 *   err = (cur − target) / target
 *   err &gt; err_d : rate = rate / adj_d
 *   err &lt; err_i : rate = rate + (−(err − c_i))·adj_i       rate ∈ [rate_min, rate_max]
 * </pre>
 *
 * <p>The measurement, the windows of samples and their smoothed p90 {@code cur}, is the class's
 * {@link P90Estimator}, which every class has whether or not this controller controls it; the
 * rounds that the owning {@link EndpointAdmissionController} runs close its windows.
 *
 * <p>Fresh samples ({@link ControllerParameters#judgeOnFreshSamples()}, on by default, not in
 * the paper): a round that cuts this class's rate marks the time of the cut in the estimator; a
 * sample of a request that arrived before the mark measures the old rate, so it is only counted
 * as stale, and the next round with fresh samples restarts the estimate from their p90. See
 * {@link EndpointAdmissionController} for the round's rules.
 *
 * <p>Concurrency: {@link #tryAcquire} runs on request threads; only the token bucket's CAS is
 * shared by every admitted request, as any rate limit must be. Everything else ({@code lc}, the
 * flags) is touched only by the round, which the owning {@link EndpointAdmissionController}
 * runs under its guard, one round at a time.
 */
public final class ClassController {

  private static final long NO_REFUSAL_AGE_NANOS = 1L << 62;

  private final String endpoint;
  private final ClassDefinition requestClass;
  private final ClassSettings settings;

  private final TokenBucket bucket;

  /** The class's response-time measurement, which the rounds close and judge on. */
  private final P90Estimator p90;

  /** Whether the class judges on fresh samples (and so marks its cuts in the estimator). */
  private final boolean freshOnly;

  /** Whether the class has a target (read on every arrival). */
  private final boolean counted;

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
   * Consecutive rounds that saw only stale samples. A restart outside the round guard may race
   * with a round over it; either result is a count off by one, which shifts when a cut is
   * forgotten by a round.
   */
  private int staleRoundCount;

  ClassController(
      String endpoint,
      ClassDefinition requestClass,
      ClassSettings settings,
      P90Estimator p90,
      long now) {
    this.endpoint = endpoint;
    this.requestClass = requestClass;
    this.settings = settings;
    this.p90 = p90;
    ControllerParameters p = settings.parameters();
    // Judging on fresh samples, a bucket holds at most a round of its rate (see TokenBucket).
    this.bucket =
        new TokenBucket(
            p.initialRate(),
            p.bucketDepth(),
            now,
            p.judgeOnFreshSamples() && settings.controlled() ? p.timeoutNanos() : 0L);
    this.counted = settings.controlled();
    this.freshOnly = p.judgeOnFreshSamples() && settings.controlled();
    this.sampledAtNanos = now;
    this.rejectedAtNanos = now - NO_REFUSAL_AGE_NANOS;
  }

  /**
   * The measurement a class with {@code settings} needs, from {@code now}: windows of nreq
   * samples or a timeout when it is controlled, of a timeout alone when it is only measured;
   * stale samples kept out when it judges on fresh ones.
   */
  static P90Estimator measurementFor(ClassSettings settings, long now) {
    ControllerParameters p = settings.parameters();
    boolean controlled = settings.controlled();
    return new P90Estimator(
        p.timeoutNanos(),
        controlled ? p.nreq() : 0,
        p.alpha(),
        p.judgeOnFreshSamples() && controlled,
        now);
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

  /** The class's response-time measurement: its windows and smoothed p90 estimate. */
  public P90Estimator p90() {
    return p90;
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

  /** The class's round state, as {@link RateRound} reads it (under the endpoint's guard). */
  RateRound.State roundState() {
    return new RateRound.State(bucket.rate(), lc, staleRoundCount, suppressIncrease, rejected);
  }

  /**
   * Applies what a round decided from {@code before} at {@code now}. The flag request threads
   * set ({@code rejected}) is cleared only when the round spent it, so that one set since
   * {@code before} is not lost.
   */
  void apply(RateRound.State before, RateRound.Next next, long now) {
    RateRound.State s = next.state();
    if (s.rate() != before.rate()) {
      setRate(s.rate(), now);
    }
    lc = s.lc();
    staleRoundCount = s.staleRounds();
    suppressIncrease = s.suppressIncrease();
    if (next.restartEstimate()) {
      p90.restartEstimate();
    }
    if (before.rejected() && !s.rejected()) {
      rejected = false;
    }
    if (next.cut()) {
      p90.markStale(now);
    }
    if (next.forgetCut()) {
      p90.clearStaleMark(now);
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
      p90.markStale(now);
      p90.restartEstimate();
      staleRoundCount = 0;
    }
  }

  /** The next round with samples starts the estimate from them. */
  void restartEstimate() {
    p90.restartEstimate();
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
