package org.overloadcontrol.degrade;

import java.time.Duration;
import org.overloadcontrol.base.OverloadLog;

/**
 * One log line when an endpoint's quality moves by a step or its admission control is switched,
 * never per request and never for a period that changed nothing. The default of both adapters
 * (Welsh &amp; Culler 2003, §4.5: what the operator needs to see of degradation).
 */
public final class LoggingQualityListener implements QualityListener {

  private static final OverloadLog LOG = OverloadLog.get("org.overloadcontrol.degrade");

  @Override
  public void onRound(QualityRound r) {
    if (!r.changed()) {
      return;
    }
    long p90Millis = Duration.ofNanos(r.p90Nanos()).toMillis();
    long targetMillis = Duration.ofNanos(r.targetNanos()).toMillis();
    switch (r.action()) {
      case ADMISSION_ON ->
          LOG.info(
              "overload-control: endpoint '{}' at minimum quality {} and"
                  + " p90 {} ms over target {} ms: admission control on",
              r.endpoint(),
              fmt(r.qualityAfter()),
              p90Millis,
              targetMillis);
      case ADMISSION_OFF ->
          LOG.info(
              "overload-control: endpoint '{}' p90 {} ms under target {}"
                  + " ms and admission no longer limiting: admission control off",
              r.endpoint(),
              p90Millis,
              targetMillis);
      default ->
          LOG.info(
              "overload-control: endpoint '{}' quality {} -> {} (p90 {} ms, target" + " {} ms)",
              r.endpoint(),
              fmt(r.qualityBefore()),
              fmt(r.qualityAfter()),
              p90Millis,
              targetMillis);
    }
  }

  private static String fmt(double q) {
    return String.format(java.util.Locale.ROOT, "%.2f", q);
  }
}
