package org.overloadcontrol.metrics;

/**
 * The quality level of an endpoint in [q_min, 1] (Welsh &amp; Culler 2003, §3.4), for metrics and
 * the dashboard. Degradation is built separately; until it is wired in, {@link #FULL} reports
 * 1.0 for every endpoint, so the metric exists and reads "full quality".
 */
@FunctionalInterface
public interface QualitySource {

  /** Every endpoint at full quality: what an engine without degradation serves. */
  QualitySource FULL = endpoint -> 1.0;

  /** The current quality level of {@code endpoint}. */
  double quality(String endpoint);
}
