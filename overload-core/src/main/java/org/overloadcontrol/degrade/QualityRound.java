package org.overloadcontrol.degrade;

/**
 * What one period of an endpoint's quality controller saw and did; handed to a
 * {@link QualityListener}, for logs, dashboards and tests.
 *
 * @param endpoint the endpoint
 * @param nowNanos the ticker reading at the end of the period
 * @param sampleCount response times recorded in the period
 * @param p90Nanos their 90th percentile, or −1 if there were none
 * @param targetNanos the target
 * @param qualityBefore quality at the start of the period
 * @param qualityAfter quality from now on
 * @param admissionEnabled whether admission control applies from now on
 * @param action what the period did
 */
public record QualityRound(
    String endpoint,
    long nowNanos,
    long sampleCount,
    long p90Nanos,
    long targetNanos,
    double qualityBefore,
    double qualityAfter,
    boolean admissionEnabled,
    Action action) {

  /** What a period did. */
  public enum Action {
    /** No response time was recorded: nothing changed (an idle endpoint and a stuck one look
     * the same, and raising quality into a stuck one would be wrong). */
    NO_SAMPLES,
    /** p90 over the target: quality was cut by one step. */
    LOWER,
    /** p90 over the target at minimum quality: admission control was switched on. */
    ADMISSION_ON,
    /** p90 over the target at minimum quality with admission already on (or alone mode). */
    HOLD_AT_MIN,
    /**
     * p90 over the target at minimum quality with admission on, and the endpoint completed
     * more than its buckets' rates: they were raised to what it completed.
     */
    ADMISSION_RAISED,
    /** p90 under raiseBelow·target and admission no longer limiting: admission was switched off. */
    ADMISSION_OFF,
    /** p90 under raiseBelow·target but admission is still what holds the load: held. */
    HOLD_ADMITTING,
    /** p90 under raiseBelow·target: quality was raised by one step. */
    RAISE,
    /** p90 between raiseBelow·target and the target, or quality already full: held. */
    HOLD
  }

  /** Whether this period changed the quality or switched admission control. */
  public boolean changed() {
    return action == Action.LOWER
        || action == Action.RAISE
        || action == Action.ADMISSION_ON
        || action == Action.ADMISSION_OFF;
  }
}
