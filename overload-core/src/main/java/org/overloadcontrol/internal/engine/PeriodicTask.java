package org.overloadcontrol.internal.engine;

import java.util.Collection;
import java.util.function.DoubleSupplier;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.admission.QueueThresholdController;
import org.overloadcontrol.internal.degrade.QualityController;
import org.overloadcontrol.internal.queue.WaitQueues;
import org.overloadcontrol.internal.session.SessionGate;

/**
 * The engine's periodic task and its life cycle: every {@value #PERIOD_NANOS} ns on the
 * adapter's scheduler, from the engine's start until its stop, it closes what is closed by time
 * rather than by requests: the lapse of detached requests' permits ({@link DetachedRequests}),
 * the concurrency groups' windows (told whether the machine's cores are
 * saturated), the queue thresholds' and the quality controllers' periods, the wait queues'
 * windows and adaptive permits, and the session table's expiries. The request path never runs
 * it.
 */
final class PeriodicTask {

  static final long PERIOD_NANOS = 100_000_000L;

  private final Ticker ticker;
  private final DoubleSupplier machineCpuLoad;
  private final CoreSaturation cores = new CoreSaturation();
  private final Collection<ConcurrencyGroup> groups;
  private final Collection<ControlledEndpoint> endpoints;

  /** The wait queues, or null when there are none. */
  private final WaitQueues queues;

  /** Session-aware admission, or null when it is off. */
  private final SessionGate sessions;

  /** Running requests on no thread, whose permits lapse after a while. */
  private final DetachedRequests detached;

  private volatile Scheduler.Cancellable scheduled;

  /**
   * @param groups the concurrency groups, a live view: those created later are ticked too
   * @param endpoints the endpoints, a live view
   */
  PeriodicTask(
      Ticker ticker,
      DoubleSupplier machineCpuLoad,
      Collection<ConcurrencyGroup> groups,
      Collection<ControlledEndpoint> endpoints,
      WaitQueues queues,
      SessionGate sessions,
      DetachedRequests detached) {
    this.ticker = ticker;
    this.machineCpuLoad = machineCpuLoad;
    this.groups = groups;
    this.endpoints = endpoints;
    this.queues = queues;
    this.sessions = sessions;
    this.detached = detached;
  }

  /** Runs {@link #tick} every period on {@code scheduler}, until {@link #stop}. */
  void start(Scheduler scheduler) {
    scheduled = scheduler.scheduleAtFixedRate(this::tick, PERIOD_NANOS);
  }

  /** Ends the periodic runs, if they were started. */
  void stop() {
    Scheduler.Cancellable s = scheduled;
    if (s != null) {
      s.cancel();
    }
  }

  /** One run: lapsed permits, limit windows, queue windows, adaptive permits, queue thresholds, quality, sessions. */
  void tick() {
    long now = ticker.read();
    boolean saturated = cores.saturated(machineCpuLoad.getAsDouble());
    // Before the windows close, so that a lapsed request's sample is in the window of its lapse.
    detached.lapse(now);
    for (ConcurrencyGroup g : groups) {
      g.coresSaturated(saturated);
      g.tick(now);
    }
    for (ControlledEndpoint e : endpoints) {
      QueueThresholdController t = e.queueThreshold();
      if (t != null) {
        t.tick(now);
      }
      QualityController q = e.qualityController();
      if (q != null) {
        q.tick(now);
      }
    }
    if (queues != null) {
      queues.tick();
    }
    if (sessions != null) {
      sessions.tick(now);
    }
  }
}
