package org.overloadcontrol.admission;

/**
 * One round of a concurrency group's limit; handed to an {@link AdmissionListener}, for logs
 * and tests.
 *
 * @param group the group's name
 * @param nanos when the round ran, on the engine's ticker
 * @param samples execution times recorded in the window
 * @param p90OfTarget their p90 over their class's target, NaN without samples
 * @param reachedLimit whether the in-flight count reached the limit in the window
 * @param limitBefore the limit before the round
 * @param limitAfter the limit after it
 */
public record LimitRound(
    String group,
    long nanos,
    long samples,
    double p90OfTarget,
    boolean reachedLimit,
    double limitBefore,
    double limitAfter) {

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "%s n=%4d p90/target=%5.2f%s limit %6.1f -> %6.1f",
        group,
        samples,
        p90OfTarget,
        reachedLimit ? " (at limit)" : "",
        limitBefore,
        limitAfter);
  }
}
