package org.overloadcontrol.it.load;

import java.util.SplittableRandom;

/**
 * Sends one attempt of a shop request for one emulated user and reports how it ended, once.
 * {@link ShopClient} does it over HTTP; unit tests of the users' behaviour answer from a script.
 */
public interface ShopTransport {

  /** What the caller hears about one attempt, on a client thread. */
  interface Callback {
    /**
     * @param outcome how the attempt ended
     * @param status the response status, 0 without a response
     * @param latencyNanos send to answer (or to giving up)
     * @param retryAfterNanos the answer's {@code Retry-After} (delay-seconds form), or -1
     */
    void ended(Outcome outcome, int status, long latencyNanos, long retryAfterNanos);
  }

  /** Sends one attempt of {@code type} for {@code user}, giving up after {@code timeoutNanos}. */
  void send(
      ShopRequest type,
      ShopClient.UserSession user,
      SplittableRandom random,
      long timeoutNanos,
      Callback callback);
}
