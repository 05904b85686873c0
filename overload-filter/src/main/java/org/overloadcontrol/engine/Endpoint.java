package org.overloadcontrol.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.admission.ClassController;
import org.overloadcontrol.admission.EndpointAdmissionController;
import org.overloadcontrol.admission.QueueThresholdController;
import org.overloadcontrol.queue.EndpointPermits;

/**
 * An endpoint: a SEDA stage (Welsh et al. 2001) with its own admission controller, execution
 * permits and statistics, so that overload is handled where it arises and only requests to the
 * bottleneck are shed.
 */
public final class Endpoint {

  private final String name;
  private final EndpointAdmissionController admission;
  private final EndpointPermits permits;
  private final QueueThresholdController queueThreshold;
  private final Ticker ticker;
  private final ConcurrentHashMap<String, EndpointClass> classes = new ConcurrentHashMap<>();

  Endpoint(String name, EndpointAdmissionController admission, EndpointPermits permits,
      QueueThresholdController queueThreshold, Ticker ticker) {
    this.name = name;
    this.admission = admission;
    this.permits = permits;
    this.queueThreshold = queueThreshold;
    this.ticker = ticker;
  }

  public String name() {
    return name;
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

  /** This endpoint's state for {@code requestClass}, created on first use. */
  public EndpointClass forClass(RequestClass requestClass) {
    EndpointClass existing = classes.get(requestClass.name());
    if (existing != null) {
      return existing;
    }
    return classes.computeIfAbsent(requestClass.name(), n -> {
      ClassController c = admission.forClass(requestClass, ticker.read());
      return new EndpointClass(this, c);
    });
  }

  /** The classes seen at this endpoint so far. */
  public List<EndpointClass> classes() {
    return new ArrayList<>(classes.values());
  }
}
