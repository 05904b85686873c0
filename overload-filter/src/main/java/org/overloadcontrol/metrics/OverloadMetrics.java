package org.overloadcontrol.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.admission.ClassController;
import org.overloadcontrol.admission.QueueThresholdController;
import org.overloadcontrol.bandwidth.GroupSnapshot;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.RequestClass;
import org.overloadcontrol.engine.Endpoint;
import org.overloadcontrol.engine.EndpointClass;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.queue.EndpointPermits;
import org.overloadcontrol.queue.QueueSettings;
import org.overloadcontrol.queue.WaitQueues;

/**
 * Registers the engine's metrics in a Dropwizard {@link MetricRegistry}: the one place where
 * metrics are registered. Every metric is a {@link Gauge} that reads state the engine keeps
 * anyway (its {@code LongAdder} counters, the controllers' estimates and rates, the permit and
 * queue counters), so a request pays nothing for being measured.
 *
 * <p>Endpoints and classes appear as the engine first sees them: {@link #sync} registers what is
 * new and runs once per metrics period on the filter's scheduler thread (and before each status
 * read). The queue metrics exist from the start, one per configured class; so do the virtual
 * queue's and the bandwidth shaper's when those features are on ({@link FeatureGauges}), with a
 * bandwidth group's gauges added by {@link #sync} should the view name a new one. {@link #close}
 * removes everything registered here, so an application's own registry is left as it was.
 *
 * <p>Names: {@link MetricNames}; each is also kept with its Prometheus family and labels
 * ({@link #ids}) for {@link PrometheusText}.
 */
public final class OverloadMetrics implements AutoCloseable {

  private static final OverloadLog LOG = OverloadLog.get(OverloadMetrics.class);

  private final OverloadEngine engine;
  private final MetricRegistry registry;
  private final OverloadWatch watch;
  private final Map<String, MetricId> ids = new ConcurrentHashMap<>();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final BandwidthView bandwidth;

  public OverloadMetrics(OverloadEngine engine, MetricRegistry registry, OverloadWatch watch) {
    this(engine, registry, watch, null, null);
  }

  /**
   * @param bandwidth the bandwidth shares, or null when they are off
   * @param virtualQueue the virtual queue, or null when it is off
   */
  public OverloadMetrics(OverloadEngine engine, MetricRegistry registry, OverloadWatch watch,
      BandwidthView bandwidth, VirtualQueueView virtualQueue) {
    this.engine = engine;
    this.registry = registry;
    this.watch = watch;
    this.bandwidth = bandwidth;
    registerQueues();
    if (bandwidth != null) {
      FeatureGauges.registerBandwidth(bandwidth, this::register);
    }
    if (virtualQueue != null) {
      FeatureGauges.registerVirtualQueue(virtualQueue, this::register);
    }
    if (engine.sessions() != null) {
      FeatureGauges.registerSessions(engine.sessions(), this::register);
    }
    sync();
  }

  public MetricRegistry registry() {
    return registry;
  }

  /** The metrics registered here, by Dropwizard name. */
  public Map<String, MetricId> ids() {
    return ids;
  }

  /** Registers the endpoints and classes the engine has seen since the last call. */
  public synchronized void sync() {
    for (Endpoint e : engine.endpoints()) {
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
          FeatureGauges.registerGroup(bandwidth, g.name(), this::register);
        }
      }
    }
  }

  private void registerQueues() {
    WaitQueues queues = engine.queues();
    if (queues == null) {
      return;
    }
    register(MetricNames.queues(MetricNames.LIFO), () -> queues.lifo() ? 1 : 0);
    register(MetricNames.queues(MetricNames.WAITING), queues::waitingCount);
    register(MetricNames.queues(MetricNames.PERMITS_IN_USE), queues::permitsInUse);
    register(MetricNames.queues(MetricNames.PERMITS_LIMIT),
        () -> Readings.limit(queues.permitLimit()));
    for (String name : queueNames(engine)) {
      register(MetricNames.queueLength(name), () -> queues.queueLength(name));
    }
  }

  /** The names of the wait queues: one per configured class, or "all" for the single queue. */
  static List<String> queueNames(OverloadEngine engine) {
    if (engine.queueSettings().layout() == QueueSettings.Layout.SINGLE) {
      return List.of("all");
    }
    Collection<RequestClass> classes = engine.config().classes().values();
    return classes.stream().sorted().map(RequestClass::name).toList();
  }

  private void registerEndpoint(Endpoint e) {
    String n = e.name();
    register(MetricNames.endpoint(n, MetricNames.ADMISSION_ENABLED),
        () -> e.admission().admissionEnabled() ? 1 : 0);
    register(MetricNames.endpoint(n, MetricNames.QUALITY), e::quality);
    register(MetricNames.endpoint(n, MetricNames.MIN_QUALITY), e::minQuality);
    register(MetricNames.endpoint(n, MetricNames.OVERLOADED), () -> watch.overloaded(n) ? 1 : 0);
    EndpointPermits p = e.permits();
    if (p != null) {
      register(MetricNames.endpoint(n, MetricNames.PERMITS_IN_USE), p::inUse);
      register(MetricNames.endpoint(n, MetricNames.PERMITS_LIMIT), () -> Readings.permitLimit(p));
      register(MetricNames.endpoint(n, MetricNames.WAITING), p::waiting);
    }
    QueueThresholdController t = e.queueThreshold();
    if (t != null) {
      register(MetricNames.endpoint(n, MetricNames.QUEUE_THRESHOLD), t::threshold);
    }
  }

  private void registerClass(EndpointClass ec) {
    String e = ec.endpoint().name();
    String c = ec.requestClass().name();
    ClassController cc = ec.controller();
    register(MetricNames.endpointClass(e, c, MetricNames.ARRIVALS), ec::arrivalCount);
    for (Outcome o : Outcome.values()) {
      register(MetricNames.outcome(e, c, o), () -> ec.outcomeCount(o));
    }
    register(MetricNames.endpointClass(e, c, MetricNames.ENQUEUED), ec::enqueuedCount);
    register(MetricNames.endpointClass(e, c, MetricNames.ABANDONED), ec::abandonedCount);
    register(MetricNames.endpointClass(e, c, MetricNames.WAIT_SECONDS),
        () -> Readings.waitSeconds(ec));
    register(MetricNames.endpointClass(e, c, MetricNames.P90_ESTIMATE_SECONDS),
        () -> Readings.p90EstimateSeconds(cc));
    register(MetricNames.endpointClass(e, c, MetricNames.P90_SAMPLE_SECONDS),
        () -> Readings.p90SampleSeconds(cc));
    register(MetricNames.endpointClass(e, c, MetricNames.P90_TARGET_SECONDS),
        () -> Readings.targetSeconds(cc));
    register(MetricNames.endpointClass(e, c, MetricNames.ADMISSION_RATE),
        () -> Readings.admissionRate(ec));
  }

  private void register(MetricId id, Gauge<? extends Number> gauge) {
    try {
      registry.register(id.dropwizardName(), gauge);
      ids.put(id.dropwizardName(), id);
    } catch (IllegalArgumentException e) {
      // The name is taken: another filter shares an application's registry, or an endpoint
      // name collides. Keep the existing metric rather than fail the request path.
      LOG.warn("overload-control: metric {} already exists in the registry; not registered",
          id.dropwizardName());
    }
  }

  /** Removes every metric registered here. */
  @Override
  public synchronized void close() {
    for (String name : ids.keySet()) {
      registry.remove(name);
    }
    ids.clear();
    seen.clear();
  }
}
