package org.overloadcontrol.internal.engine;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.ConcurrencyLimit;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.admission.RateGroup;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.config.EndpointSettings;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.degrade.DegradeSettings;
import org.overloadcontrol.internal.queue.EndpointPermits;
import org.overloadcontrol.internal.queue.QueueSettings;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.LimiterContext;
import org.overloadcontrol.limiter.LimiterProvider;

/**
 * The one place an endpoint's admission algorithm is chosen and built. The choice is the
 * controller its group names ({@code admission.controller}, {@code
 * admission.groups.<g>.controller}: {@code concurrency}, {@code rate}, {@code queue-threshold},
 * or a registered {@link LimiterProvider}'s name), overridden by {@code
 * queue.endpoints.<e>.admission: queue-threshold}; a concurrency limit or a queue threshold that
 * a group names falls back to the rate controller where it cannot act (see {@link
 * #countsPermitsAt}).
 *
 * <p>Every endpoint also gets the rate controller's rounds, which close the windows of each
 * class's {@link org.overloadcontrol.internal.measure.P90Estimator} (its p90 estimate, its
 * sampling): where another algorithm admits, they only measure.
 */
final class AdmissionFactory {

  /** The algorithms an endpoint can have. */
  enum Algorithm {
    CONCURRENCY,
    RATE,
    QUEUE_THRESHOLD,
    PROVIDED
  }

  private final OverloadConfig config;
  private final Ticker ticker;
  private final CpuClock cpu;
  private final AdmissionListener listener;
  private final WaitQueues queues;
  private final QueueSettings queueSettings;
  private final DegradeSettings degradeSettings;
  private final AdmissionSettings admissionSettings;
  private final QualityListener qualityListener;

  /** The concurrency groups, by name. */
  final ConcurrentHashMap<String, ConcurrencyGroup> groups = new ConcurrentHashMap<>();

  /** Endpoints seen where some class has a target, by the name of their resource group. */
  private final ConcurrentHashMap<String, String> controlledGroupOf = new ConcurrentHashMap<>();

  /** The rate controllers of each resource group's endpoints, by the group's name. */
  private final ConcurrentHashMap<String, RateGroup> rateGroups = new ConcurrentHashMap<>();

  AdmissionFactory(
      OverloadConfig config,
      Ticker ticker,
      CpuClock cpu,
      AdmissionListener listener,
      WaitQueues queues,
      QueueSettings queueSettings,
      DegradeSettings degradeSettings,
      AdmissionSettings admissionSettings,
      QualityListener qualityListener) {
    this.config = config;
    this.ticker = ticker;
    this.cpu = cpu;
    this.listener = listener;
    this.queues = queues;
    this.queueSettings = queueSettings;
    this.degradeSettings = degradeSettings;
    this.admissionSettings = admissionSettings;
    this.qualityListener = qualityListener;
  }

  /**
   * Endpoint {@code name} with its admission built.
   *
   * @param before the replaced engine's state (a reload): the limits and rates it had learned
   *     carry over; null at start
   */
  ControlledEndpoint endpoint(String name, AdmissionFactory before, ControlledEndpoint old) {
    QueueSettings.EndpointQueueSettings qs = queueSettings.endpoint(name);
    AdmissionSettings.Group g = admissionSettings.groupOf(name);
    Algorithm algorithm = algorithm(name, g, qs);
    ConcurrencyGroup group =
        algorithm == Algorithm.CONCURRENCY ? concurrencyGroup(g, before) : null;
    String groupName = g.name();
    if (hasTarget(name)) {
      controlledGroupOf.put(name, groupName);
    }
    EndpointAdmissionController admission =
        new EndpointAdmissionController(
            name,
            c -> config.settingsFor(name, c),
            listener,
            algorithm == Algorithm.RATE || algorithm == Algorithm.QUEUE_THRESHOLD,
            () ->
                controlledGroupOf.entrySet().stream()
                    .anyMatch(e -> !e.getKey().equals(name) && e.getValue().equals(groupName)),
            rateGroups.computeIfAbsent(groupName, n -> new RateGroup()));
    carryRates(old, admission);
    boolean countsPermits =
        algorithm == Algorithm.CONCURRENCY || algorithm == Algorithm.QUEUE_THRESHOLD;
    EndpointPermits permits =
        queues == null || !queueSettings.enabled() && !countsPermits ? null : queues.endpoint(name);
    QueueThresholdController threshold =
        algorithm == Algorithm.QUEUE_THRESHOLD ? threshold(name) : null;
    // A concurrency limit takes the execution permit itself (the class's share of the group
    // and the endpoint's permit), and a request over it waits for one in the LIFO-Pri queues;
    // its rate controller only measures, and its buckets admit everything.
    Function<EndpointClass, Limiter> limiters =
        switch (algorithm) {
          case QUEUE_THRESHOLD -> {
            Limiter shared = new QueueThresholdLimiter(threshold, permits);
            yield route -> shared;
          }
          case PROVIDED -> route -> provided(g, route);
          case RATE -> route -> new TokenBucketLimiter(route, ticker);
          case CONCURRENCY ->
              route ->
                  new ConcurrencyLimiter(
                      route,
                      ticker,
                      cpu,
                      queues,
                      permits,
                      route.endpoint().concurrencyPartition(route.controller()));
        };
    // Behind any other limiter, the endpoint's execution permits (queue.*) are a stage of their
    // own, taken after admission.
    ExecutionPermit queueStage =
        permits == null || algorithm == Algorithm.CONCURRENCY
            ? null
            : new ExecutionPermit(queues, permits);
    return new ControlledEndpoint(
        name,
        admission,
        permits,
        queueStage,
        threshold,
        ticker,
        degradeSettings.endpoint(name),
        qualityListener,
        group,
        admissionSettings.maxWaitOfTarget(),
        limiters);
  }

  /** The algorithm of endpoint {@code name}. */
  private Algorithm algorithm(
      String name, AdmissionSettings.Group g, QueueSettings.EndpointQueueSettings qs) {
    if (qs != null && qs.admission() == QueueSettings.AdmissionPolicy.QUEUE_THRESHOLD) {
      return Algorithm.QUEUE_THRESHOLD;
    }
    return switch (g.controller()) {
      case RATE -> Algorithm.RATE;
      case PROVIDED -> Algorithm.PROVIDED;
      case CONCURRENCY -> countsPermitsAt(name) ? Algorithm.CONCURRENCY : Algorithm.RATE;
      case QUEUE_THRESHOLD -> countsPermitsAt(name) ? Algorithm.QUEUE_THRESHOLD : Algorithm.RATE;
    };
  }

  /**
   * Whether a controller that counts the endpoint's requests with the wait queues' permits (a
   * concurrency limit, a queue threshold) can act at endpoint {@code name} when its group names
   * it. It needs the wait queues (an engine without a scheduler has none), a class with a target
   * (else nothing would take the group's permits, and a queue threshold without a target would
   * hold its initial threshold on an endpoint nobody asked to control), and no degradation of its
   * own: an endpoint that degrades and no group names keeps the token buckets, which
   * degradation switches on and off (Welsh &amp; Culler 2003, §3.4).
   */
  private boolean countsPermitsAt(String name) {
    return queues != null
        && (degradeSettings.endpoint(name) == null || admissionSettings.grouped(name))
        && hasTarget(name);
  }

  private Limiter provided(AdmissionSettings.Group g, EndpointClass route) {
    ClassController c = route.controller();
    return g.provider()
        .create(
            new LimiterContext(
                route.endpoint().name(),
                c.requestClass().name(),
                g.name(),
                Math.max(0L, c.targetNanos()),
                g.maxLimit(),
                g.initialLimit()));
  }

  /** The queue threshold of endpoint {@code name}, tuned by its {@code queue.} keys if any. */
  private QueueThresholdController threshold(String name) {
    QueueSettings.EndpointQueueSettings qs = queueSettings.endpointOrDefaults(name);
    EndpointSettings es = config.endpoints().get(name);
    long target = es == null || es.targetNanos() == null ? 0L : es.targetNanos();
    return new QueueThresholdController(
        name,
        target,
        qs.thresholdInitial(),
        qs.thresholdStep(),
        qs.thresholdDivisor(),
        qs.thresholdPeriodNanos(),
        ticker.read());
  }

  /** The concurrency group {@code g}, created on first use. */
  private ConcurrencyGroup concurrencyGroup(AdmissionSettings.Group g, AdmissionFactory before) {
    return groups.computeIfAbsent(
        g.name(),
        n -> {
          ConcurrencyGroup created =
              new ConcurrencyGroup(
                  n,
                  new ConcurrencyLimit(
                      admissionSettings.setpoint(), g.maxLimit(), admissionSettings.idleHeadroom()),
                  carriedLimit(g, before),
                  admissionSettings.windowNanos(),
                  admissionSettings.windowSamples(),
                  listener,
                  ticker.read());
          created.cpuClock(cpu);
          return created;
        });
  }

  /** The limit a group learned under the replaced configuration, or its configured start. */
  private static int carriedLimit(AdmissionSettings.Group g, AdmissionFactory before) {
    ConcurrencyGroup old = before == null ? null : before.groups.get(g.name());
    return old == null ? g.initialLimit() : Math.max(1, Math.min(g.maxLimit(), old.limit()));
  }

  /**
   * Starts each class at a reloaded endpoint at the rate its controller had learned under the
   * replaced configuration, so a reload does not send the endpoint back to its initial rate.
   */
  private void carryRates(ControlledEndpoint old, EndpointAdmissionController admission) {
    if (old == null) {
      return;
    }
    long now = ticker.read();
    for (ClassController c : old.admission().classes()) {
      config.requestClass(c.requestClass().name()).ifPresent(d -> admission.carryRate(d, c, now));
    }
  }

  /** Whether some class has a target at endpoint {@code name}. */
  boolean hasTarget(String name) {
    return config.classes().values().stream()
        .anyMatch(c -> config.settingsFor(name, c).targetNanos() > 0);
  }
}
