package org.overloadcontrol.metrics;

import java.util.Locale;
import org.overloadcontrol.admission.ClassController;
import org.overloadcontrol.admission.ConcurrencyGroup;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.engine.EndpointClass;

/**
 * One log line when an endpoint enters overload and one when it leaves, never per request:
 * what an operator needs to find the start and end of an episode in the application's log.
 * Logger {@code org.overloadcontrol.overload}, level INFO on entering and leaving.
 */
public final class LoggingOverloadListener implements OverloadEvent.Listener {

  private static final OverloadLog LOG = OverloadLog.get("org.overloadcontrol.overload");

  @Override
  public void onOverloadChange(OverloadEvent event) {
    String name = event.endpoint().name();
    if (event.entered()) {
      LOG.info(
          "overload-control: endpoint '{}' entered overload: shed {} of {} requests in {}" + "{}",
          name,
          event.shedCount(),
          event.arrivalCount(),
          seconds(event.periodNanos()),
          controllers(event));
    } else {
      LOG.info(
          "overload-control: endpoint '{}' left overload after {}: shed {} of {} requests;"
              + " none shed while over target for {}",
          name,
          seconds(event.periodNanos()),
          event.shedCount(),
          event.arrivalCount(),
          seconds(event.quietNanos()));
    }
  }

  /**
   * Each controlled class's p90 against its target and its rate, e.g. "; search p90 2.41 s";
   * under a concurrency limit the group's limit and in-flight count, and each class's share of
   * recent responses over its target.
   */
  static String controllers(OverloadEvent event) {
    StringBuilder sb = new StringBuilder();
    ConcurrencyGroup g = event.endpoint().concurrencyGroup();
    if (g != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "; group '%s' limit %d, %d in flight",
              g.name(),
              g.limit(),
              g.inFlight()));
    }
    for (EndpointClass ec : event.endpoint().classes()) {
      ClassController c = ec.controller();
      if (!c.settings().controlled()) {
        continue;
      }
      if (ec.concurrency() != null) {
        sb.append(", ")
            .append(c.requestClass().name())
            .append(
                String.format(
                    Locale.ROOT,
                    " %.0f %% of recent responses over target %.3f s",
                    100 * ec.concurrency().missShare(),
                    Readings.targetSeconds(c)));
        continue;
      }
      sb.append(sb.length() == 0 ? "; " : ", ").append(c.requestClass().name()).append(" p90 ");
      double est = Readings.p90EstimateSeconds(c);
      sb.append(Double.isNaN(est) ? "unknown" : String.format(Locale.ROOT, "%.3f s", est))
          .append(
              String.format(
                  Locale.ROOT, " vs target %.3f s at %.1f/s", Readings.targetSeconds(c), c.rate()));
    }
    return sb.toString();
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
