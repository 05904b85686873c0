package org.overloadcontrol.it.support;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One open-loop run: GET {@code target} with Poisson arrivals at {@code ratePerSecond}, until
 * {@code maxRequestCount} requests were sent or {@code duration} has passed, whichever is first.
 * Responses to requests sent before {@code warmup} are counted but kept out of the latency
 * histograms, so they describe the steady part of the run.
 *
 * @param target the URL; its host must be a loopback address (this driver loads only the
 *     machine it runs on)
 * @param ratePerSecond mean arrival rate
 * @param maxRequestCount the most requests to send
 * @param duration the longest time to send for
 * @param warmup the leading part of the run left out of the histograms
 * @param requestTimeout a request still unanswered after this long counts as failed
 * @param headers request headers, e.g. {@code Accept}
 * @param seed seed of the arrival process, so a run's schedule can be repeated
 */
public record LoadPlan(
    URI target,
    double ratePerSecond,
    int maxRequestCount,
    Duration duration,
    Duration warmup,
    Duration requestTimeout,
    Map<String, String> headers,
    long seed) {

  public LoadPlan {
    Objects.requireNonNull(target, "target");
    requireLoopback(target);
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("ratePerSecond must be > 0, was " + ratePerSecond);
    }
    if (maxRequestCount < 1) {
      throw new IllegalArgumentException("maxRequestCount must be >= 1, was " + maxRequestCount);
    }
    requirePositive("duration", duration);
    Objects.requireNonNull(warmup, "warmup");
    if (warmup.isNegative() || warmup.compareTo(duration) >= 0) {
      throw new IllegalArgumentException("warmup must be in [0, duration), was " + warmup);
    }
    requirePositive("requestTimeout", requestTimeout);
    headers = Map.copyOf(headers);
  }

  /** {@code ratePerSecond} for {@code duration}, no warm-up, 10 s timeout, fixed seed. */
  public static LoadPlan of(URI target, double ratePerSecond, Duration duration) {
    int cap =
        (int)
            Math.min(
                Integer.MAX_VALUE, Math.ceil(ratePerSecond * duration.toNanos() / 1e9 * 2 + 100));
    return new LoadPlan(
        target, ratePerSecond, cap, duration, Duration.ZERO, Duration.ofSeconds(10), Map.of(), 42L);
  }

  public LoadPlan withWarmup(Duration newWarmup) {
    return new LoadPlan(
        target, ratePerSecond, maxRequestCount, duration, newWarmup, requestTimeout, headers, seed);
  }

  public LoadPlan withRequestTimeout(Duration timeout) {
    return new LoadPlan(
        target, ratePerSecond, maxRequestCount, duration, warmup, timeout, headers, seed);
  }

  public LoadPlan withHeaders(Map<String, String> newHeaders) {
    return new LoadPlan(
        target, ratePerSecond, maxRequestCount, duration, warmup, requestTimeout, newHeaders, seed);
  }

  public LoadPlan withMaxRequestCount(int count) {
    return new LoadPlan(
        target, ratePerSecond, count, duration, warmup, requestTimeout, headers, seed);
  }

  public LoadPlan withSeed(long newSeed) {
    return new LoadPlan(
        target, ratePerSecond, maxRequestCount, duration, warmup, requestTimeout, headers, newSeed);
  }

  private static void requirePositive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }

  private static void requireLoopback(URI target) {
    String host = target.getHost();
    if (!"http".equals(target.getScheme()) || host == null) {
      throw new IllegalArgumentException("target must be an http URL, was " + target);
    }
    try {
      // Only literal loopback addresses and "localhost": the load goes nowhere else.
      if (!host.equals("localhost") && !host.matches("[0-9.]+|\\[[0-9a-fA-F:]+\\]")
          || !InetAddress.getByName(host).isLoopbackAddress()) {
        throw new IllegalArgumentException("target must be on 127.0.0.1, was " + target);
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("target must be on 127.0.0.1, was " + target, e);
    }
  }
}
