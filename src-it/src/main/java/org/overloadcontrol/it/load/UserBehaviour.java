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
 */
public record UserBehaviour(Duration fixedTimeout, Duration meanThinkTimeout,
    double retryProbability, int maxRetries, Duration meanThinkTime, Duration rejectionPause) {

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
  }

  /**
   * The paper's users at time scale 1: 8 s + Exp(12 s), p = 0.4, M = 5; 1 s think time
   * between pages (our choice: the paper's session logs do not give one); 5 s pause after a
   * rejection.
   */
  public static UserBehaviour paper() {
    return new UserBehaviour(Duration.ofSeconds(8), Duration.ofSeconds(12), 0.4, 5,
        Duration.ofSeconds(1), Duration.ofSeconds(5));
  }

  /** Every duration multiplied by {@code factor} (service times are scaled the same way). */
  public UserBehaviour scaled(double factor) {
    return new UserBehaviour(times(fixedTimeout, factor), times(meanThinkTimeout, factor),
        retryProbability, maxRetries, times(meanThinkTime, factor),
        times(rejectionPause, factor));
  }

  public UserBehaviour withTimeouts(Duration fixed, Duration meanThink) {
    return new UserBehaviour(fixed, meanThink, retryProbability, maxRetries, meanThinkTime,
        rejectionPause);
  }

  public UserBehaviour withThinkTime(Duration mean) {
    return new UserBehaviour(fixedTimeout, meanThinkTimeout, retryProbability, maxRetries, mean,
        rejectionPause);
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
