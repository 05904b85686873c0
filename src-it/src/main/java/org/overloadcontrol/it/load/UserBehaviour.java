package org.overloadcontrol.it.load;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * How impatient the emulated users are (LIFO-Pri §3.2.1, after httperf's options): a request
 * is abandoned after {@code fixedTimeout} plus an exponentially distributed think-timeout of
 * mean {@code meanThinkTimeout}; an abandoned request is retried with probability
 * {@code retryProbability}, at most {@code maxRetries} times; a session whose request finally
 * fails is abandoned. Between pages a user thinks for an exponential time of mean
 * {@code meanThinkTime}; after a 503 a closed-loop user waits {@code rejectionPause}
 * (Welsh & Culler 2003 §4.1: 5 s) before starting again.
 *
 * <p>A refusal (503, 429, a redirect to a waiting room) is answered as {@code onRefusal} says:
 * a real visitor mostly {@linkplain RefusalResponse#LEAVE leaves at the first one}, wherever it
 * falls in the visit; some {@linkplain RefusalResponse#RETRY_ONCE try once more} after the
 * server's {@code Retry-After}; the load tool of the issues' first measurements (httperf's
 * sessions) {@linkplain RefusalResponse#STAY stays}: it takes the refusal as an answer and goes on
 * to the next step of its walk.
 */
public record UserBehaviour(
    Duration fixedTimeout,
    Duration meanThinkTimeout,
    double retryProbability,
    int maxRetries,
    Duration meanThinkTime,
    Duration rejectionPause,
    RefusalResponse onRefusal) {

  /** What an open-loop user does when a request of its visit is refused. */
  public enum RefusalResponse {
    /** Leaves the shop at once (LIFO-Pri's users: a refused request is "dropped"). */
    LEAVE,
    /**
     * Waits the answer's {@code Retry-After} (or {@link #RELOAD_DELAY} when it has none, a user
     * pressing reload) and sends the same request once more; leaves if it is refused again.
     */
    RETRY_ONCE,
    /**
     * Takes the refusal as the page's answer and goes on to the next step of the walk, as
     * httperf's sessions do (the load tool does not stop at a 503). The shop then answers a
     * confirm whose checkout steps were refused with 409: no purchase.
     */
    STAY
  }

  /** How long a retrying user waits after a refusal that carries no {@code Retry-After}. */
  public static final Duration RELOAD_DELAY = Duration.ofSeconds(1);

  public UserBehaviour {
    if (retryProbability < 0 || retryProbability > 1) {
      throw new IllegalArgumentException("retryProbability must be in [0, 1]");
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0");
    }
    if (fixedTimeout.isNegative() || fixedTimeout.isZero()) {
      throw new IllegalArgumentException("fixedTimeout must be positive");
    }
    java.util.Objects.requireNonNull(onRefusal, "onRefusal");
  }

  /** Users who leave at their first refusal. */
  public UserBehaviour(
      Duration fixedTimeout,
      Duration meanThinkTimeout,
      double retryProbability,
      int maxRetries,
      Duration meanThinkTime,
      Duration rejectionPause) {
    this(
        fixedTimeout,
        meanThinkTimeout,
        retryProbability,
        maxRetries,
        meanThinkTime,
        rejectionPause,
        RefusalResponse.LEAVE);
  }

  /**
   * The paper's users at time scale 1: 8 s + Exp(12 s), p = 0.4, M = 5; 1 s think time
   * between pages (our choice: the paper's session logs do not give one); 5 s pause after a
   * rejection.
   */
  public static UserBehaviour paper() {
    return new UserBehaviour(
        Duration.ofSeconds(8),
        Duration.ofSeconds(12),
        0.4,
        5,
        Duration.ofSeconds(1),
        Duration.ofSeconds(5));
  }

  /** Every duration multiplied by {@code factor} (service times are scaled the same way). */
  public UserBehaviour scaled(double factor) {
    return new UserBehaviour(
        times(fixedTimeout, factor),
        times(meanThinkTimeout, factor),
        retryProbability,
        maxRetries,
        times(meanThinkTime, factor),
        times(rejectionPause, factor),
        onRefusal);
  }

  public UserBehaviour withTimeouts(Duration fixed, Duration meanThink) {
    return new UserBehaviour(
        fixed, meanThink, retryProbability, maxRetries, meanThinkTime, rejectionPause, onRefusal);
  }

  public UserBehaviour withThinkTime(Duration mean) {
    return new UserBehaviour(
        fixedTimeout,
        meanThinkTimeout,
        retryProbability,
        maxRetries,
        mean,
        rejectionPause,
        onRefusal);
  }

  public UserBehaviour withRefusalResponse(RefusalResponse response) {
    return new UserBehaviour(
        fixedTimeout,
        meanThinkTimeout,
        retryProbability,
        maxRetries,
        meanThinkTime,
        rejectionPause,
        response);
  }

  /**
   * After the {@code refusals}-th refusal of one request, how long the user waits before
   * sending it again, or -1 when it leaves. {@code retryAfterNanos} is the answer's
   * {@code Retry-After}, -1 when it had none; the server's word is taken as it is, not scaled.
   */
  public long retryDelayAfterRefusalNanos(int refusals, long retryAfterNanos) {
    if (onRefusal != RefusalResponse.RETRY_ONCE || refusals > 1) {
      return -1;
    }
    return retryAfterNanos >= 0 ? retryAfterNanos : RELOAD_DELAY.toNanos();
  }

  /** Whether a refused request counts as answered and the walk goes on ({@link RefusalResponse#STAY}). */
  public boolean goesOnAfterRefusal() {
    return onRefusal == RefusalResponse.STAY;
  }

  /** One request's patience: fixed part plus an exponential draw. */
  public long drawTimeoutNanos(SplittableRandom random) {
    return fixedTimeout.toNanos() + exponential(meanThinkTimeout.toNanos(), random);
  }

  /** One think time between pages. */
  public long drawThinkNanos(SplittableRandom random) {
    return exponential(meanThinkTime.toNanos(), random);
  }

  /** Whether a timed-out request that was tried {@code attempts} times is tried again. */
  public boolean retries(int attempts, SplittableRandom random) {
    return attempts <= maxRetries && random.nextDouble() < retryProbability;
  }

  static long exponential(long meanNanos, SplittableRandom random) {
    if (meanNanos <= 0) {
      return 0;
    }
    return (long) (-Math.log(1.0 - random.nextDouble()) * meanNanos);
  }

  private static Duration times(Duration d, double factor) {
    return Duration.ofNanos(Math.round(d.toNanos() * factor));
  }
}
