package org.overloadcontrol.internal.metrics;

import java.util.Locale;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;

/**
 * One log line each time an endpoint's state changes, never per request: what an operator needs
 * to find when an endpoint began and stopped shedding in the application's log. Logger
 * {@code org.overloadcontrol.overload}, level INFO, e.g.
 *
 * <pre>
 * overload-control: endpoint 'search' is now shedding, was limiting (93 % refused over 5.0 s;
 *     search p90 41 ms of 100 ms target; group 'default' limit 12, 12 in flight)
 * </pre>
 */
final class LoggingStateListener implements StateChange.Listener {

  private static final OverloadLog LOG = OverloadLog.get("org.overloadcontrol.overload");

  @Override
  public void onStateChange(StateChange change) {
    LOG.info("{}", line(change));
  }

  /** The line for {@code change}, without the logger's own prefix. */
  static String line(StateChange change) {
    return String.format(
        Locale.ROOT,
        "overload-control: endpoint '%s' is now %s, was %s (%s)",
        change.endpoint().name(),
        change.to().word(),
        change.from().word(),
        detail(change.endpoint(), change.reading()));
  }

  /**
   * The share refused over the window, then each class with a target: its p90 against the
   * target; the quality level when it is lowered; under a concurrency limit the group's limit
   * and in-flight count.
   */
  static String detail(ControlledEndpoint e, StateReading r) {
    StringBuilder sb = new StringBuilder();
    String window = String.format(Locale.ROOT, "%.1f s", r.windowNanos() / 1e9);
    if (r.refused() > 0) {
      sb.append(percent(r.refusedShare())).append(" refused over ").append(window);
    } else {
      sb.append("nothing refused over ").append(window);
    }
    for (EndpointClass ec : e.classes()) {
      ClassController c = ec.controller();
      if (!c.settings().controlled()) {
        continue;
      }
      sb.append("; ")
          .append(c.requestClass().name())
          .append(" p90 ")
          .append(duration(Readings.p90EstimateSeconds(ec.p90())))
          .append(" of ")
          .append(duration(Readings.targetSeconds(c)))
          .append(" target");
    }
    if (e.quality() < 1.0) {
      sb.append(String.format(Locale.ROOT, "; quality %.2f", e.quality()));
    }
    EndpointLoad load = EndpointLoad.of(e);
    if (load.hasGroup()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "; group '%s' limit %d, %d in flight",
              load.groupName(),
              load.groupLimit(),
              load.groupInFlight()));
    }
    return sb.toString();
  }

  /**
   * A share as a percentage an operator reads: "93 %", "0.4 %", "99.7 %"; rounding never turns
   * some refusals into "0 %" or some served into "100 %".
   */
  static String percent(double share) {
    double p = 100 * share;
    if (p >= 99.5 && p < 100) {
      return String.format(Locale.ROOT, "%.1f %%", Math.min(p, 99.9));
    }
    return String.format(Locale.ROOT, p > 0 && p < 9.95 ? "%.1f %%" : "%.0f %%", p);
  }

  private static String duration(double seconds) {
    if (Double.isNaN(seconds)) {
      return "unknown";
    }
    return seconds < 10
        ? String.format(Locale.ROOT, "%.0f ms", seconds * 1000)
        : String.format(Locale.ROOT, "%.1f s", seconds);
  }
}
