package org.overloadcontrol.internal.metrics;

import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.session.SessionGate;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * The gauges of the two features that live beside the engine: bandwidth shares (Li &amp; Jamin,
 * §V: per group b<sub>i</sub>, b̂<sub>i</sub>, active flag, delayed/admitted/refused; the
 * shaper's B and Â) and the virtual queue (WebQ: passed, token-admitted, told to wait, refusals
 * by reason, the wait now, the capacity). Like the engine's, each gauge reads state the feature
 * keeps anyway, so a request pays nothing for being measured. {@link OverloadMetrics} records
 * them when the feature is on; counts (admitted, refused, passed, ...) as counts.
 */
final class FeatureGauges {

  private FeatureGauges() {}

  /** The shaper-wide gauges. */
  static void registerBandwidth(BandwidthView view, MetricsRecorder register) {
    register.gauge(
        MetricNames.bandwidth(MetricNames.TOTAL_BYTES_PER_SECOND), view::totalBytesPerSecond);
    register.gauge(
        MetricNames.bandwidth(MetricNames.MAX_MEASURED_BYTES_PER_SECOND),
        view::maxMeasuredBytesPerSecond);
  }

  /** The gauges of one client group. */
  static void registerGroup(BandwidthView view, String group, MetricsRecorder register) {
    groupGauge(
        view,
        group,
        MetricNames.ALLOCATED_BYTES_PER_SECOND,
        GroupSnapshot::allocatedBytesPerSecond,
        register);
    groupGauge(
        view,
        group,
        MetricNames.AVERAGE_BYTES_PER_SECOND,
        GroupSnapshot::averageBytesPerSecond,
        register);
    groupGauge(view, group, MetricNames.ACTIVE, g -> g.active() ? 1 : 0, register);
    groupGauge(view, group, MetricNames.DELAYED_NOW, GroupSnapshot::delayedCount, register);
    groupCount(view, group, MetricNames.ADMITTED, GroupSnapshot::admittedCount, register);
    groupCount(view, group, MetricNames.REFUSED, GroupSnapshot::refusedCount, register);
  }

  private static void groupGauge(
      BandwidthView view,
      String group,
      String metric,
      ToDoubleFunction<GroupSnapshot> reading,
      MetricsRecorder register) {
    register.gauge(
        MetricNames.bandwidthGroup(group, metric),
        () -> {
          GroupSnapshot g = Readings.group(view, group);
          return g == null ? Double.NaN : reading.applyAsDouble(g);
        });
  }

  private static void groupCount(
      BandwidthView view,
      String group,
      String metric,
      ToLongFunction<GroupSnapshot> reading,
      MetricsRecorder register) {
    register.count(
        MetricNames.bandwidthGroup(group, metric),
        () -> {
          GroupSnapshot g = Readings.group(view, group);
          return g == null ? 0 : reading.applyAsLong(g);
        });
  }

  /** The virtual queue's gauges, one refusal count per {@link VirtualQueueRejection}. */
  static void registerVirtualQueue(VirtualQueueView view, MetricsRecorder register) {
    register.count(MetricNames.virtualQueue(MetricNames.PASSED), view::passCount);
    register.count(MetricNames.virtualQueue(MetricNames.TOKEN_ADMITTED), view::tokenAdmittedCount);
    register.count(MetricNames.virtualQueue(MetricNames.TOLD_TO_WAIT), view::waitCount);
    for (VirtualQueueRejection r : VirtualQueueRejection.values()) {
      register.count(MetricNames.virtualQueueRefusals(r.code()), () -> view.refusalCount(r));
    }
    register.gauge(
        MetricNames.virtualQueue(MetricNames.CURRENT_WAIT_SECONDS), view::currentWaitSeconds);
    register.gauge(
        MetricNames.virtualQueue(MetricNames.CAPACITY_SUBUNITS_PER_SECOND), view::capacity);
    register.gauge(MetricNames.virtualQueue(MetricNames.SHARE_SUBUNITS_PER_SECOND), view::share);
    register.count(MetricNames.virtualQueue(MetricNames.UNANSWERED_CLAIMS), view::unansweredClaims);
  }

  /**
   * The gauges of session-aware admission: sessions admitted now and since start, new sessions
   * refused, requests of admitted sessions refused (keep it near zero), sessions completed.
   */
  static void registerSessions(SessionGate gate, MetricsRecorder register) {
    register.gauge(MetricNames.sessions(MetricNames.ADMITTED_NOW), gate::admittedSessions);
    register.count(MetricNames.sessions(MetricNames.ADMITTED), gate::admittedCount);
    register.count(MetricNames.sessions(MetricNames.NEW_REFUSED), gate::newSessionsRefusedCount);
    register.count(
        MetricNames.sessions(MetricNames.MID_SESSION_REFUSALS), gate::midSessionRefusalCount);
    register.count(MetricNames.sessions(MetricNames.COMPLETED), gate::completedCount);
  }

  /** The configuration's version and its reloads, read when the library collects. */
  static void registerConfig(
      java.util.function.Supplier<ConfigStatus> config, MetricsRecorder register) {
    register.gauge(MetricNames.config(MetricNames.VERSION), () -> config.get().version());
    register.count(MetricNames.config(MetricNames.RELOADS), () -> config.get().reloads());
    register.count(MetricNames.config(MetricNames.RELOAD_FAILURES), () -> config.get().failures());
  }
}
