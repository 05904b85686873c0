package org.overloadcontrol.internal.queue;

import org.overloadcontrol.queue.QueueListener;

/**
 * SEDA's thread-pool controller (Welsh et al. 2001, §3.4, Figure 8) on a servlet container's
 * threads: the container owns the threads, so what we size is the number of an endpoint's
 * requests that may execute at once. Every sample period, if the endpoint's waiting requests
 * exceed the threshold, one permit is added (up to the maximum); a permit that has stayed free
 * for the idle time is removed (down to the minimum). Published values: threshold 100 queue
 * entries, at most 20 threads, idle 5 s, sampled every 2 s; our default threshold is 10 because
 * servlet queues are bounded at 25–50.
 */
final class AdaptivePermitController {

  private final EndpointPermits permits;
  private final QueueSettings.EndpointQueueSettings settings;
  private final QueueListener listener;
  private long lastSample;

  AdaptivePermitController(
      EndpointPermits permits,
      QueueSettings.EndpointQueueSettings settings,
      QueueListener listener,
      long now) {
    this.permits = permits;
    this.settings = settings;
    this.listener = listener;
    this.lastSample = now;
  }

  /** Called from the queues' periodic task, on one thread. */
  void tick(long now) {
    int limit = permits.limit();
    if (permits.inUse() < limit) {
      if (permits.freeSinceNanos < 0) {
        permits.freeSinceNanos = now;
      } else if (now - permits.freeSinceNanos >= settings.idleNanos()
          && limit > settings.minPermits()) {
        permits.setLimit(limit - 1);
        permits.freeSinceNanos = now;
        listener.onPermitLimitChange(permits.endpoint(), limit, limit - 1);
        return;
      }
    } else {
      permits.freeSinceNanos = -1;
    }
    if (now - lastSample < settings.samplePeriodNanos()) {
      return;
    }
    lastSample = now;
    if (permits.waiting() > settings.queueThreshold() && limit < settings.maxPermits()) {
      permits.setLimit(limit + 1);
      permits.freeSinceNanos = -1;
      listener.onPermitLimitChange(permits.endpoint(), limit, limit + 1);
    }
  }
}
