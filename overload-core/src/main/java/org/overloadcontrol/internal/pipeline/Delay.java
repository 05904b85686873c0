package org.overloadcontrol.internal.pipeline;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * A request of a client group over its bandwidth share, held for its delay (Li &amp; Jamin §V,
 * delay = (1/dᵢ − 1/Â)·size) on a timer, holding no thread. Written once here for every
 * adapter; the request's {@link Exchange} says how to go on ({@link Target#delayEnded}:
 * admission) and how to answer a request cut short ({@link Target#cutShort}: its carrier gets
 * a {@code REJECT}, settled {@code EXPIRED}).
 *
 * <p>The delay is left out of the response time the admission controller sees (it is
 * deliberate, not a sign of overload) but stays in the bandwidth measurement: the ticket's
 * clock started at the decision, so the delay brings the group's measured bandwidth to its
 * share (§V.C).
 *
 * <p>Races: the timer, the client leaving ({@link #cut}), the container completing the request
 * itself ({@link #cancel}) and the stop ({@link OverloadRuntime#shutdown}) may come at once; the
 * compare-and-set on {@code settled} lets exactly one of them act.
 */
final class Delay {

  /** What the adapter does at the end of a delay. */
  interface Target {
    /** The delay is over: go on to admission as if the request had just arrived. */
    void delayEnded();

    /**
     * The delay was cut short (the client left, or the stop); the engine has been told why
     * ({@link RequestTag#reason()}): answer 503 and settle the outcome as {@code EXPIRED}.
     */
    void cutShort();
  }

  private static final OverloadLog LOG = OverloadLog.get(Delay.class);

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final ShapingDecision shaping;
  private final Target target;
  private final Delays pending;
  // Closes the race between the timer, a client leaving, the container and the stop.
  private final AtomicBoolean settled = new AtomicBoolean();
  private volatile Scheduler.Cancellable timer;

  private Delay(
      OverloadEngine engine,
      RequestTag tag,
      ShapingDecision shaping,
      Target target,
      Delays pending) {
    this.engine = engine;
    this.tag = tag;
    this.shaping = shaping;
    this.target = target;
    this.pending = pending;
  }

  /** The timer: the delay is over. */
  private void end() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    pending.remove(this);
    shaping.ticket().delayEnded();
    engine.excludeFromResponseTime(tag, shaping.delayNanos());
    target.delayEnded();
  }

  /**
   * Cuts the delay short if it is still running: the engine records {@code reason}
   * ({@code abandoned}, {@code shutdown}) and the target answers the request.
   *
   * @return true if this call settled the delay
   */
  boolean cut(RejectionReason reason) {
    if (!cancel()) {
      return false;
    }
    engine.reject(tag, reason);
    target.cutShort();
    return true;
  }

  /**
   * Ends the delay without a word to the target, for a request the container completed by
   * itself: the caller settles its outcome.
   *
   * @return true if this call settled the delay
   */
  boolean cancel() {
    if (!settled.compareAndSet(false, true)) {
      return false;
    }
    pending.remove(this);
    Scheduler.Cancellable t = timer;
    if (t != null) {
      t.cancel();
    }
    return true;
  }

  /**
   * The delays of one runtime not yet ended; {@link #stop} cuts them all short, and a delay
   * started after it is cut short at once, so none is left behind by the stop.
   */
  static final class Delays {
    private final Set<Delay> delays = ConcurrentHashMap.newKeySet();
    private final Scheduler scheduler;
    private volatile boolean stopped;

    Delays(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * Holds the request for {@code shaping.delayNanos()}. An adapter whose container reports a
     * client leaving registers for it before calling this, and calls {@link Delay#cut} with
     * {@code abandoned}.
     */
    Delay start(OverloadEngine engine, RequestTag tag, ShapingDecision shaping, Target target) {
      Delay delay = new Delay(engine, tag, shaping, target, this);
      delays.add(delay);
      delay.timer = scheduler.schedule(delay::end, shaping.delayNanos());
      if (stopped) {
        // Registered after the stop looked, and its timer may never run: answer it now.
        delay.cut(RejectionReason.SHUTDOWN);
      }
      return delay;
    }

    /** Delays not yet ended. */
    int size() {
      return delays.size();
    }

    void remove(Delay delay) {
      delays.remove(delay);
    }

    /** Marks the stop first, then cuts every delay short with reason {@code shutdown}. */
    void stop() {
      stopped = true;
      for (Delay d : List.copyOf(delays)) {
        try {
          d.cut(RejectionReason.SHUTDOWN);
        } catch (RuntimeException e) {
          // One request's trouble at the stop must not keep the others from their answer.
          LOG.debug("overload-control: cutting a delay short at the stop failed", e);
        }
      }
    }
  }
}
