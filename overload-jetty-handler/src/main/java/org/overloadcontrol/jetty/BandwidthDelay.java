package org.overloadcontrol.jetty;

import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.Outcome;
import org.overloadcontrol.engine.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request of a client group over its bandwidth share, held for its delay (Li &amp; Jamin §V,
 * delay = (1/dᵢ − 1/Â)·size) without a thread: {@code handle} has returned {@code true}, and a
 * timer on the engine's {@link Scheduler} resumes it, on the server's executor, into admission.
 * The Jetty counterpart of the filter's {@code DelayedRequest}.
 *
 * <p>The delay is left out of the response time the admission controller sees (it is
 * deliberate, not a sign of overload) but stays in the bandwidth measurement (the ticket's
 * clock started at the decision, so the delay brings the group's measured bandwidth to its
 * share, §V.C).
 *
 * <p>The timer, the client leaving (Jetty's failure listener) and the handler stopping may
 * race; {@link #settled} lets exactly one of them act.
 */
final class BandwidthDelay implements Consumer<Throwable> {

  private static final Logger LOG = LoggerFactory.getLogger(BandwidthDelay.class);

  private final OverloadEngine engine;
  private final ControlledRequest controlled;
  private final ShapingDecision shaping;
  private final Set<BandwidthDelay> pending;
  // Prevents the race between the timer, a client failure and a stop: one of them acts.
  private final AtomicBoolean settled = new AtomicBoolean();
  private volatile Scheduler.Cancellable timer;

  BandwidthDelay(OverloadEngine engine, ControlledRequest controlled, ShapingDecision shaping,
      Set<BandwidthDelay> pending) {
    this.engine = engine;
    this.controlled = controlled;
    this.shaping = shaping;
    this.pending = pending;
  }

  /** Holds the request: registers for client failures, then starts the timer. */
  void start(Scheduler scheduler) {
    pending.add(this);
    // Registered before the timer: a client may leave at any moment after.
    controlled.request().addFailureListener(this);
    timer = scheduler.schedule(this::resume, shaping.delayNanos());
  }

  private void resume() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    pending.remove(this);
    shaping.ticket().delayEnded();
    engine.excludeFromResponseTime(controlled.tag(), shaping.delayNanos());
    try {
      // Not on the timer's thread: admission may run the application.
      controlled.request().getContext().execute(controlled::admitLater);
    } catch (RejectedExecutionException e) {
      LOG.debug("overload-control: delayed request could not be dispatched", e);
      engine.refuse(controlled.tag(), "shutdown");
      controlled.refuse(Outcome.EXPIRED);
    }
  }

  /** The handler is stopping: answer 503 now. */
  void shutdown() {
    if (settled.compareAndSet(false, true)) {
      cancelTimer();
      engine.refuse(controlled.tag(), "shutdown");
      controlled.refuse(Outcome.EXPIRED);
    }
  }

  /**
   * Jetty's failure listener: the client left or the connection failed while the request was
   * delayed. It is answered 503 like an expired one (the write fails if the connection is gone,
   * and Jetty fails the callback). After the delay has ended the listener does nothing; the
   * request's later stages register their own.
   */
  @Override
  public void accept(Throwable failure) {
    if (settled.compareAndSet(false, true)) {
      LOG.debug("overload-control: delayed request failed", failure);
      cancelTimer();
      engine.refuse(controlled.tag(), "abandoned");
      controlled.refuse(Outcome.EXPIRED);
    }
  }

  private void cancelTimer() {
    pending.remove(this);
    Scheduler.Cancellable t = timer;
    if (t != null) {
      t.cancel();
    }
  }
}
