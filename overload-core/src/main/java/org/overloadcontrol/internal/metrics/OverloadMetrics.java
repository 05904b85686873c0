package org.overloadcontrol.internal.metrics;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.measure.P90Estimator;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * Hands the engine's metrics to a {@link MetricsRecorder} (whichever metrics libraries are
 * bound, or none): the one place where metrics are named. Every metric reads state the engine
 * keeps anyway (its {@code LongAdder} counters, the controllers' estimates and rates, the permit
 * and queue counters), so a request pays nothing for being measured; counts are recorded as
 * counts, the rest as gauges.
 *
 * <p>Endpoints and classes appear as the engine first sees them: {@link #sync} registers what is
 * new and runs once per metrics period on the filter's scheduler thread (and before each status
 * read). The queue metrics exist from the start, one per configured class; so do the virtual
 * queue's and the bandwidth shaper's when those features are on ({@link FeatureGauges}), with a
 * bandwidth group's gauges added by {@link #sync} should the view name a new one. {@link #close}
 * closes the recorder, which removes everything recorded, so an application's own registry is
 * left as it was.
 *
 * <p>Names: {@link MetricNames}.
 */
public final class OverloadMetrics implements AutoCloseable {

  private final OverloadEngine engine;
  private final MetricsRecorder recorder;
  private final OverloadWatch watch;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  private final BandwidthView bandwidth;

  public OverloadMetrics(OverloadEngine engine, MetricsRecorder recorder, OverloadWatch watch) {
    this(engine, recorder, watch, null, null);
  }

  /**
   * @param bandwidth the bandwidth shares, or null when they are off
   * @param virtualQueue the virtual queue, or null when it is off
   */
  public OverloadMetrics(
      OverloadEngine engine,
      MetricsRecorder recorder,
      OverloadWatch watch,
      BandwidthView bandwidth,
      VirtualQueueView virtualQueue) {
    this.engine = engine;
    this.recorder = recorder;
    this.watch = watch;
    this.bandwidth = bandwidth;
    registerQueues();
    if (bandwidth != null) {
      FeatureGauges.registerBandwidth(bandwidth, recorder);
    }
    if (virtualQueue != null) {
      FeatureGauges.registerVirtualQueue(virtualQueue, recorder);
    }
    if (engine.sessions() != null) {
      FeatureGauges.registerSessions(engine.sessions(), recorder);
    }
    sync();
  }

  /** The recorder the metrics go to. */
  public MetricsRecorder recorder() {
    return recorder;
  }

  /** Registers the endpoints and classes the engine has seen since the last call. */
  public void sync() {
    // A lock, not a monitor: the status page and a scrape call this on request threads, which
    // may be virtual (a monitor found taken pins the carrier thread on Java 21 to 23).
    lock.lock();
    try {
      for (ControlledEndpoint e : engine.endpoints()) {
        if (seen.add(e.name())) {
          registerEndpoint(e);
        }
        for (EndpointClass ec : e.classes()) {
          if (seen.add(e.name() + '\u0000' + ec.requestClass().name())) {
            registerClass(ec);
          }
        }
      }
      if (bandwidth != null) {
        for (GroupSnapshot g : bandwidth.groups()) {
          // A separator no endpoint name contains keeps groups and endpoints apart in one set.
          if (seen.add("\u0001" + g.name())) {
            FeatureGauges.registerGroup(bandwidth, g.name(), recorder);
          }
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private void registerQueues() {
    WaitQueues queues = engine.queues();
    if (queues == null) {
      return;
    }
    recorder.gauge(MetricNames.queues(MetricNames.LIFO), () -> queues.lifo() ? 1 : 0);
    recorder.gauge(MetricNames.queues(MetricNames.WAITING), queues::waitingCount);
    recorder.gauge(MetricNames.queues(MetricNames.PERMITS_IN_USE), queues::permitsInUse);
    recorder.gauge(
        MetricNames.queues(MetricNames.PERMITS_LIMIT), () -> Readings.limit(queues.permitLimit()));
    for (String name : queueNames(engine)) {
      recorder.gauge(MetricNames.queueLength(name), () -> queues.queueLength(name));
    }
  }

  /** The names of the wait queues: one per configured class, or "all" for the single queue. */
  static List<String> queueNames(OverloadEngine engine) {
    if (engine.queueSettings().layout() == QueueSettings.Layout.SINGLE) {
      return List.of("all");
    }
    Collection<ClassDefinition> classes = engine.config().classes().values();
    return classes.stream().sorted().map(ClassDefinition::name).toList();
  }

  private void registerEndpoint(ControlledEndpoint e) {
    String n = e.name();
    recorder.gauge(
        MetricNames.endpoint(n, MetricNames.ADMISSION_ENABLED),
        () -> e.admission().admissionEnabled() ? 1 : 0);
    recorder.gauge(MetricNames.endpoint(n, MetricNames.QUALITY), e::quality);
    recorder.gauge(MetricNames.endpoint(n, MetricNames.MIN_QUALITY), e::minQuality);
    for (EndpointState s : EndpointState.values()) {
      recorder.gauge(MetricNames.endpointState(n, s), () -> watch.state(n) == s ? 1 : 0);
    }
    recorder.gauge(
        MetricNames.endpoint(n, MetricNames.REFUSED_SHARE), () -> watch.reading(n).refusedShare());
    EndpointLoad load = EndpointLoad.of(e);
    if (load.hasPermits()) {
      recorder.gauge(MetricNames.endpoint(n, MetricNames.PERMITS_IN_USE), load::permitsInUse);
      recorder.gauge(
          MetricNames.endpoint(n, MetricNames.PERMITS_LIMIT),
          () -> Readings.limit(load.permitsLimit()));
      recorder.gauge(MetricNames.endpoint(n, MetricNames.WAITING), load::waiting);
    }
    QueueThresholdController t = e.queueThreshold();
    if (t != null) {
      recorder.gauge(MetricNames.endpoint(n, MetricNames.QUEUE_THRESHOLD), t::threshold);
    }
  }

  private void registerClass(EndpointClass ec) {
    String e = ec.endpoint().name();
    String c = ec.requestClass().name();
    ClassController cc = ec.controller();
    P90Estimator p90 = ec.p90();
    recorder.count(MetricNames.endpointClass(e, c, MetricNames.ARRIVALS), ec::arrivalCount);
    for (Outcome o : Outcome.values()) {
      recorder.count(MetricNames.outcome(e, c, o), () -> ec.outcomeCount(o));
    }
    recorder.count(MetricNames.endpointClass(e, c, MetricNames.ENQUEUED), ec::enqueuedCount);
    recorder.count(MetricNames.endpointClass(e, c, MetricNames.ABANDONED), ec::abandonedCount);
    recorder.gauge(
        MetricNames.endpointClass(e, c, MetricNames.WAIT_SECONDS), () -> Readings.waitSeconds(ec));
    recorder.gauge(
        MetricNames.endpointClass(e, c, MetricNames.P90_ESTIMATE_SECONDS),
        () -> Readings.p90EstimateSeconds(p90));
    recorder.gauge(
        MetricNames.endpointClass(e, c, MetricNames.P90_SAMPLE_SECONDS),
        () -> Readings.p90SampleSeconds(p90));
    recorder.gauge(
        MetricNames.endpointClass(e, c, MetricNames.P90_TARGET_SECONDS),
        () -> Readings.targetSeconds(cc));
    recorder.gauge(
        MetricNames.endpointClass(e, c, MetricNames.ADMISSION_RATE),
        () -> Readings.admissionRate(ec));
  }

  /** Closes the recorder, which removes every metric recorded. */
  @Override
  public void close() {
    lock.lock();
    try {
      recorder.close();
      seen.clear();
    } finally {
      lock.unlock();
    }
  }
}
