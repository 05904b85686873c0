package org.overloadcontrol.internal.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.admission.ClassController;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.EndpointAdmissionController;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.degrade.EndpointDegradeSettings;
import org.overloadcontrol.internal.degrade.QualityController;
import org.overloadcontrol.internal.queue.EndpointPermits;
import org.overloadcontrol.limiter.Limiter;

/**
 * An endpoint under overload control, as the engine runs it: its own admission controller,
 * execution permits and statistics (what Welsh et al. 2001 call a stage), so that overload is
 * handled where it arises and only requests to the bottleneck are shed. Users name endpoints
 * with the {@link org.overloadcontrol.annotation.Endpoint} annotation or an
 * {@code endpoints.<name>} key; the engine makes one of these for each name it routes to.
 */
public final class ControlledEndpoint {

  private final String name;
  private final EndpointAdmissionController admission;
  private final EndpointPermits permits;
  private final ExecutionPermit queueStage;
  private final QueueThresholdController queueThreshold;
  private final Ticker ticker;
  private final QualityController quality;
  private final ConcurrencyGroup group;
  private final double maxWaitOfTarget;
  private final Function<EndpointClass, Limiter> limiters;
  private final ConcurrentHashMap<String, EndpointClass> classes = new ConcurrentHashMap<>();

  /**
   * @param queueStage the endpoint's execution permits as a stage after admission, or null when
   *     it has none or its limiter takes them itself
   * @param group the concurrency group that admits this endpoint's requests with a target, or
   *     null when its token buckets do
   * @param maxWaitOfTarget a request of the group waits for a permit at most this fraction of
   *     its target
   * @param limiters the admission algorithm's limiter of each class at this endpoint
   */
  ControlledEndpoint(
      String name,
      EndpointAdmissionController admission,
      EndpointPermits permits,
      ExecutionPermit queueStage,
      QueueThresholdController queueThreshold,
      Ticker ticker,
      EndpointDegradeSettings degrade,
      QualityListener qualityListener,
      ConcurrencyGroup group,
      double maxWaitOfTarget,
      Function<EndpointClass, Limiter> limiters) {
    this.limiters = limiters;
    this.group = group;
    this.maxWaitOfTarget = maxWaitOfTarget;
    this.name = name;
    this.admission = admission;
    this.permits = permits;
    this.queueStage = queueStage;
    this.queueThreshold = queueThreshold;
    this.ticker = ticker;
    this.quality =
        degrade == null
            ? null
            : new QualityController(
                degrade, new EndpointAdmissionSwitch(this), qualityListener, ticker.read());
  }

  public String name() {
    return name;
  }

  /** The engine's clock. */
  Ticker ticker() {
    return ticker;
  }

  public EndpointAdmissionController admission() {
    return admission;
  }

  /** The endpoint's execution permits, or null when no wait queues are configured. */
  public EndpointPermits permits() {
    return permits;
  }

  /**
   * Haboob's queue-threshold controller when the endpoint uses that admission policy instead of
   * the token bucket, else null.
   */
  public QueueThresholdController queueThreshold() {
    return queueThreshold;
  }

  /** The endpoint's quality controller when it is degradable, else null. */
  public QualityController qualityController() {
    return quality;
  }

  /** The endpoint's current quality in [0, 1]; 1 when it is not degradable. */
  public double quality() {
    return quality == null ? 1.0 : quality.quality();
  }

  /** The endpoint's minimum quality; 1 when it is not degradable. */
  public double minQuality() {
    return quality == null ? 1.0 : quality.minQuality();
  }

  /** This endpoint's state for {@code requestClass}, created on first use. */
  public EndpointClass forClass(ClassDefinition requestClass) {
    EndpointClass existing = classes.get(requestClass.name());
    if (existing != null) {
      return existing;
    }
    return classes.computeIfAbsent(
        requestClass.name(),
        n -> {
          ClassController c = admission.forClass(requestClass, ticker.read());
          return new EndpointClass(this, c);
        });
  }

  /** The concurrency group that admits this endpoint's requests, or null. */
  public ConcurrencyGroup concurrencyGroup() {
    return group;
  }

  /** The partition of the group for a class with a target, else null. */
  ConcurrencyGroup.Partition concurrencyPartition(ClassController c) {
    long target = c.targetNanos();
    if (group == null || target <= 0) {
      return null;
    }
    return group.partition(c.requestClass(), target, Math.round(target * maxWaitOfTarget));
  }

  /** The limiter of class {@code route} at this endpoint: its admission algorithm's. */
  Limiter limiterFor(EndpointClass route) {
    return limiters.apply(route);
  }

  /**
   * The execution permit a request of class {@code route} takes after {@code limiter} admitted
   * it: the limiter itself when it takes one (a concurrency limit), else the endpoint's, or null
   * when the endpoint has none.
   */
  ExecutionPermit executionFor(Limiter limiter) {
    return limiter instanceof ExecutionPermit own ? own : queueStage;
  }

  /** The classes seen at this endpoint so far. */
  public List<EndpointClass> classes() {
    return new ArrayList<>(classes.values());
  }
}
