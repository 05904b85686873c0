package org.overloadcontrol.internal.metrics;

import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.measure.P90Estimator;

/**
 * How each exposed quantity is read from the engine, shared by the gauges and the status
 * document so the two never disagree. Not-yet-known or not-applicable values are NaN (a p90
 * before the first controller round, the rate of a class that is only measured); JSON writes
 * them as null.
 */
final class Readings {

  private static final double NANOS_PER_SECOND = 1e9;

  private Readings() {}

  static double p90EstimateSeconds(P90Estimator p90) {
    return seconds(p90.estimateNanos());
  }

  static double p90SampleSeconds(P90Estimator p90) {
    return seconds(p90.lastSampleP90Nanos());
  }

  static double targetSeconds(ClassController c) {
    long t = c.targetNanos();
    return t > 0 ? t / NANOS_PER_SECOND : Double.NaN;
  }

  /**
   * The class's token rate, requests per second; NaN when the class is not controlled, or when
   * a concurrency limit admits it (its token bucket then admits everything).
   */
  static double admissionRate(EndpointClass ec) {
    ClassController c = ec.controller();
    return c.settings().controlled() && ec.concurrency() == null ? c.rate() : Double.NaN;
  }

  static double waitSeconds(EndpointClass ec) {
    return ec.totalWaitNanos() / NANOS_PER_SECOND;
  }

  /** Requests refused or expired: what the endpoint shed. */
  static long shed(EndpointClass ec) {
    return ec.outcomeCount(Outcome.REJECTED) + ec.outcomeCount(Outcome.EXPIRED);
  }

  static double limit(int limit) {
    return limit == Integer.MAX_VALUE ? Double.POSITIVE_INFINITY : limit;
  }

  private static double seconds(long nanos) {
    return nanos < 0 ? Double.NaN : nanos / NANOS_PER_SECOND;
  }

  /** The group named {@code name} in the view now, or null when it is not (or no longer) there. */
  static GroupSnapshot group(BandwidthView view, String name) {
    for (GroupSnapshot g : view.groups()) {
      if (g.name().equals(name)) {
        return g;
      }
    }
    return null;
  }
}
