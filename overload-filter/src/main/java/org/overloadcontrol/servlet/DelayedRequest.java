package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.engine.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request held for its bandwidth delay (Li &amp; Jamin, delay = (1/dᵢ − 1/Â)·size): suspended
 * with servlet async, resumed by the filter's timer with {@link AsyncContext#dispatch()}, after
 * which the filter goes on to admission. The delay is excluded from the response time the
 * admission controller sees: it is deliberate, not a sign of overload.
 *
 * <p>The timer, the client leaving, the container's timeout and the filter stopping may race;
 * {@link #settled} lets exactly one of them act.
 */
final class DelayedRequest implements AsyncListener {

  static final String ATTRIBUTE = DelayedRequest.class.getName();

  private static final Logger LOG = LoggerFactory.getLogger(DelayedRequest.class);

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final AsyncContext async;
  private final HttpServletResponse response;
  private final ShapingDecision shaping;
  private final QueuedRequest.Finisher finisher;
  private final QueuedRequest.Refusal refusal;
  private final Set<DelayedRequest> pending;
  private final AtomicBoolean settled = new AtomicBoolean();
  private volatile Scheduler.Cancellable timer;

  DelayedRequest(OverloadEngine engine, RequestTag tag, AsyncContext async,
      HttpServletResponse response, ShapingDecision shaping, QueuedRequest.Finisher finisher,
      QueuedRequest.Refusal refusal, Set<DelayedRequest> pending) {
    this.engine = engine;
    this.tag = tag;
    this.async = async;
    this.response = response;
    this.shaping = shaping;
    this.finisher = finisher;
    this.refusal = refusal;
    this.pending = pending;
  }

  RequestTag tag() {
    return tag;
  }

  /** The response as the filter wrapped it (counting bytes). */
  HttpServletResponse response() {
    return response;
  }

  void start(Scheduler scheduler) {
    pending.add(this);
    timer = scheduler.schedule(this::resume, shaping.delayNanos());
  }

  private void resume() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    pending.remove(this);
    shaping.ticket().delayEnded();
    engine.excludeFromResponseTime(tag, shaping.delayNanos());
    try {
      async.dispatch();
    } catch (IllegalStateException e) {
      LOG.debug("overload-control: delayed request could not be dispatched", e);
      finisher.finish((HttpServletRequest) async.getRequest(), tag, Outcome.EXPIRED);
    }
  }

  /** The filter is stopping: answer 503 now. */
  void shutdown() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    cancelTimer();
    engine.refuse(tag, "shutdown");
    HttpServletRequest request = (HttpServletRequest) async.getRequest();
    try {
      refusal.answer(request, response, tag);
    } catch (IOException | jakarta.servlet.ServletException | RuntimeException e) {
      LOG.debug("overload-control: could not answer a delayed request", e);
    } finally {
      finisher.finish(request, tag, Outcome.EXPIRED);
      try {
        async.complete();
      } catch (IllegalStateException e) {
        LOG.debug("overload-control: request already completed", e);
      }
    }
  }

  private void cancelTimer() {
    pending.remove(this);
    Scheduler.Cancellable t = timer;
    if (t != null) {
      t.cancel();
    }
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    shutdown();
  }

  @Override
  public void onError(AsyncEvent event) {
    if (settled.compareAndSet(false, true)) {
      cancelTimer();
      finisher.finish((HttpServletRequest) async.getRequest(), tag, Outcome.EXPIRED);
      try {
        async.complete();
      } catch (IllegalStateException e) {
        LOG.debug("overload-control: request already completed", e);
      }
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    if (settled.compareAndSet(false, true)) {
      cancelTimer();
      finisher.finish((HttpServletRequest) async.getRequest(), tag, Outcome.EXPIRED);
    }
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // Admission may suspend the request again (a wait queue); that cycle has its own listener.
  }
}
