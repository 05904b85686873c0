package org.overloadcontrol.admission;

/**
 * What one run of a class's response-time controller saw and did; handed to an
 * {@link AdmissionListener}, for time series, logs and tests.
 *
 * @param endpoint the endpoint the controller belongs to
 * @param requestClass the class whose controller ran
 * @param nowNanos the ticker reading when it ran
 * @param sampleCount response times recorded and taken into this round (fresh ones, not stale).
 *     Above 2,000 completions a second a class records only a random sample of its
 *     completions, so this is then a fraction of the requests that completed, not their
 *     number
 * @param sampleP90Nanos the 90th percentile of those samples ({@code samp}), or −1 if none
 * @param estimateNanos the smoothed estimate ({@code cur}) after this round, or −1 if none yet
 * @param targetNanos the target, or 0 when the endpoint is measured but not controlled
 * @param error {@code (cur − target)/target}, or NaN when not computed
 * @param rateBefore the class's admission rate before the round, requests per second
 * @param rateAfter the class's admission rate after the round
 * @param action what the round did
 */
public record ControllerRound(
    String endpoint,
    String requestClass,
    long nowNanos,
    long sampleCount,
    long sampleP90Nanos,
    long estimateNanos,
    long targetNanos,
    double error,
    double rateBefore,
    double rateAfter,
    Action action) {

  /** What a round did to the admission rates. */
  public enum Action {
    /** No response time was recorded since the last round; nothing changed. */
    NO_SAMPLES,
    /**
     * Only samples of requests that arrived before the class's last cut: the rate was held
     * (judging on fresh samples, not in the paper).
     */
    STALE_ONLY,
    /** No target: the estimate was updated, no rate was touched. */
    MEASURED_ONLY,
    /** Error within [err_i, err_d]: the rate was held. */
    HOLD,
    /** Error above err_d: this class's rate was divided by adj_d. */
    DECREASE,
    /**
     * Error above err_d, but the rate was already at most the round's completions per second
     * divided by adj_d: held (judging on fresh samples, not in the paper).
     */
    HOLD_AT_THROUGHPUT,
    /** Error above err_d: the rates of lower classes were divided by adjlo_d instead (§3.3). */
    DECREASE_LOWER,
    /**
     * Error above err_d, and the rates of the endpoints on this bottleneck together above what
     * they completed: this class's rate was scaled down with them.
     */
    DECREASE_TO_GROUP,
    /** Error above err_d, lower classes already at rate_min: lc counted up, rate held. */
    COUNT_LOWER_AT_MIN,
    /** Error below err_i: the rate was raised by −(err − c_i)·adj_i. */
    INCREASE,
    /** Error below err_i, but a higher class missed its target last round: no increase. */
    INCREASE_SUPPRESSED,
    /**
     * No sample, but the bucket refused arrivals since the last round: the rate was doubled
     * (judging on fresh samples, not in the paper). A class held near rate_min completes too
     * few requests to be judged, and would otherwise stay there.
     */
    DOUBLE_WITHOUT_SAMPLES,
    /**
     * No sample, and a higher class missed its target since the last round: the flag that
     * forbids an increase was spent on this round (judging on fresh samples, not in the
     * paper, which kept it for the next round with samples).
     */
    SUPPRESSED_WITHOUT_SAMPLES,
    /**
     * Every higher class that could have cut this one has had no sample for
     * 2 timeouts: the rate this class had
     * before the first such cut was restored (judging on fresh samples, not in the paper).
     */
    RESTORED,
    /**
     * An increase was due, but the resource group's requests in flight are more than 0.9 of
     * the target's worth of its completions: held (judging on fresh samples, not in the paper).
     */
    HOLD_GROUP_QUEUED,
    /**
     * A higher class of the resource group has just left and its queue is short: this class
     * was raised with the group's other active classes to what the group completed (judging on
     * fresh samples, not in the paper).
     */
    FILLED_AFTER_HIGHER_LEFT
  }
}
