package org.overloadcontrol.internal.engine;

import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.queue.EndpointPermits;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.Permit;

/**
 * Haboob's queue-threshold controller (Welsh et al. 2001, §5.1.4) as a {@link Limiter}: a
 * request is refused when its endpoint already holds the threshold's number of requests,
 * executing or waiting; the mean response time of each period moves the threshold. One per
 * endpoint, shared by its classes, and its own permit.
 */
final class QueueThresholdLimiter implements Limiter, Permit {

  private final QueueThresholdController threshold;
  private final EndpointPermits permits;

  QueueThresholdLimiter(QueueThresholdController threshold, EndpointPermits permits) {
    this.threshold = threshold;
    this.permits = permits;
  }

  @Override
  public Permit acquire(long nowNanos, int stripe) {
    return threshold.admit(permits.inUse() + permits.waiting()) ? this : null;
  }

  @Override
  public RejectionReason rejectionReason() {
    return RejectionReason.QUEUE_THRESHOLD;
  }

  @Override
  public void onSuccess(long responseNanos) {
    threshold.record(responseNanos);
  }

  @Override
  public void onDropped() {}

  @Override
  public void onIgnore() {}
}
