package org.overloadcontrol.internal.admission;

import java.util.concurrent.atomic.LongAdder;

/**
 * Haboob's response-time controller (Welsh et al. 2001, §5.1.4), offered as an alternative
 * admission policy for an endpoint: a request is refused when the endpoint already holds
 * {@code threshold} requests; every period, if the mean response time exceeded the target the
 * threshold is divided ("exponentially reduces the stage's queue threshold"), otherwise it grows
 * by a fixed step.
 *
 * <p>In a servlet container an endpoint's queue is its requests in flight, waiting or executing, so
 * the threshold bounds both. Unlike the token bucket, this policy bounds concurrency, and like
 * the paper's it cannot guarantee the target: a burst admitted while the threshold is high still
 * shows up in the response times.
 *
 * <p>Concurrency: {@link #record} is lock-free (adders); {@link #tick} runs on the filter's one
 * scheduler thread.
 */
public final class QueueThresholdController {

  /**
   * The highest threshold the engine's controllers grow to: in effect none, since a threshold
   * above the requests a container can hold admits everything anyway, and the paper sets none.
   */
  static final int MAX_THRESHOLD = 100_000;

  private final String endpoint;
  private final long targetNanos;
  private final int step;
  private final double divisor;
  private final int maxThreshold;
  private final long periodNanos;
  private long lastTickNanos;
  private final LongAdder responseTimeSum = new LongAdder();
  private final LongAdder responseCount = new LongAdder();
  private volatile int threshold;
  private volatile long lastMeanNanos = -1;

  /** The engine's controller: the threshold grows up to {@link #MAX_THRESHOLD}. */
  public QueueThresholdController(
      String endpoint,
      long targetNanos,
      int initial,
      int step,
      double divisor,
      long periodNanos,
      long now) {
    this(endpoint, targetNanos, initial, step, divisor, MAX_THRESHOLD, periodNanos, now);
  }

  /**
   * @param targetNanos the mean response-time target; 0 leaves the threshold fixed
   */
  public QueueThresholdController(
      String endpoint,
      long targetNanos,
      int initial,
      int step,
      double divisor,
      int maxThreshold,
      long periodNanos,
      long now) {
    this.periodNanos = periodNanos;
    this.lastTickNanos = now;
    this.endpoint = endpoint;
    this.targetNanos = targetNanos;
    this.threshold = initial;
    this.step = step;
    this.divisor = divisor;
    this.maxThreshold = maxThreshold;
  }

  public String endpoint() {
    return endpoint;
  }

  /** Whether a request may join an endpoint that already holds {@code inFlight} requests. */
  public boolean admit(int inFlight) {
    return inFlight < threshold;
  }

  public void record(long responseTimeNanos) {
    responseTimeSum.add(responseTimeNanos);
    responseCount.increment();
  }

  /**
   * Called often; once a period has passed, compares the period's mean response time with the
   * target and moves the threshold.
   */
  public void tick(long now) {
    if (now - lastTickNanos < periodNanos) {
      return;
    }
    lastTickNanos = now;
    long count = responseCount.sumThenReset();
    long sum = responseTimeSum.sumThenReset();
    if (count == 0 || targetNanos <= 0) {
      return;
    }
    long mean = sum / count;
    lastMeanNanos = mean;
    threshold = next(threshold, mean, targetNanos, step, divisor, maxThreshold);
  }

  /**
   * One period's round, a function of the threshold and the period's mean response time alone:
   * over the target the threshold is divided, at or under it grows by a step, within [1,
   * {@code maxThreshold}].
   */
  static int next(
      int threshold, long meanNanos, long targetNanos, int step, double divisor, int maxThreshold) {
    return meanNanos > targetNanos
        ? Math.max(1, (int) (threshold / divisor))
        : Math.min(maxThreshold, threshold + step);
  }

  public int threshold() {
    return threshold;
  }

  /** The mean response time of the last period, or −1 before one with samples. */
  public long lastMeanNanos() {
    return lastMeanNanos;
  }
}
