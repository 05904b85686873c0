package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.queue.Waiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request suspended with servlet async while it waits for an execution permit, and its
 * lifecycle until the response completes.
 *
 * <p>Resumed: {@link AsyncContext#dispatch()} sends it back through the filter chain on the
 * container's own pool (the filter lets the async dispatch through); its outcome is reported in
 * {@link #onComplete}, when the response is done. Expired (deadline or shutdown): 503 written
 * from the timer thread, then {@link AsyncContext#complete()}. The container's async timeout and
 * errors (a client that disconnected) are a safety net: they take the request out of its queue
 * if it is still there, and whoever takes it out answers it; everything else is too late and
 * does nothing. The engine's {@code complete} settles the outcome once, so a late second report
 * is ignored.
 */
final class QueuedRequest implements Waiter.Listener, AsyncListener {

  /** Request attribute under which the filter finds this lifecycle on the async dispatch. */
  static final String ATTRIBUTE = QueuedRequest.class.getName();

  private static final Logger LOG = LoggerFactory.getLogger(QueuedRequest.class);

  /** How a refusal is written; the filter's rejection handler. */
  @FunctionalInterface
  interface Refusal {
    void answer(HttpServletRequest request, HttpServletResponse response, RequestTag tag)
        throws IOException, ServletException;
  }

  /** Reports an outcome once, to the engine and the features measuring completions. */
  @FunctionalInterface
  interface Finisher {
    void finish(HttpServletRequest request, RequestTag tag, Outcome outcome);
  }

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final AsyncContext async;
  private final Refusal refusal;
  private final Finisher finisher;
  private final HttpServletRequest request;
  private volatile boolean failed;
  /** Set when the re-dispatched request reaches the filter: from then on it completes itself. */
  private volatile boolean running;

  QueuedRequest(OverloadEngine engine, RequestTag tag, AsyncContext async, Refusal refusal,
      Finisher finisher) {
    this.engine = engine;
    this.tag = tag;
    this.async = async;
    this.refusal = refusal;
    this.finisher = finisher;
    this.request = (HttpServletRequest) async.getRequest();
  }

  void markFailed() {
    failed = true;
  }

  /** The container ran the re-dispatch: the response's completion will report the outcome. */
  void markRunning() {
    running = true;
  }

  /**
   * The filter is stopping and the container may never run a dispatch it accepted, nor tell us:
   * a request still waiting or resumed but not yet running is settled here (EXPIRED, its permit
   * returned) so that no request is left without an outcome. Settling is idempotent, so a
   * dispatch that runs after all reports nothing twice.
   */
  void settleAtShutdown() {
    if (running || tag.outcome() != null) {
      return;
    }
    engine.abandon(tag);
    answerAndComplete(Outcome.EXPIRED);
  }

  RequestTag tag() {
    return tag;
  }

  /** The queue was full: answer 503 now and end the async cycle. */
  void refuseNow() {
    answerAndComplete(Outcome.REJECTED);
  }

  @Override
  public void resumed(Waiter waiter) {
    try {
      async.dispatch();
    } catch (IllegalStateException e) {
      // The container already ended this request (timed out or failed): the permit must come
      // back, and this is the only place that knows.
      LOG.debug("overload-control: resumed request could not be dispatched", e);
      finisher.finish(request, tag, Outcome.EXPIRED);
    }
  }

  @Override
  public void expired(Waiter waiter) {
    answerAndComplete(Outcome.EXPIRED);
  }

  private void answerAndComplete(Outcome outcome) {
    try {
      refusal.answer(request, (HttpServletResponse) async.getResponse(), tag);
    } catch (IOException | ServletException | RuntimeException e) {
      LOG.debug("overload-control: could not answer a refused request", e);
    } finally {
      finisher.finish(request, tag, outcome);
      try {
        async.complete();
      } catch (IllegalStateException e) {
        LOG.debug("overload-control: request already completed", e);
      }
    }
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    if (engine.abandon(tag)) {
      answerAndComplete(Outcome.EXPIRED);
    } else {
      failed = true;
    }
  }

  @Override
  public void onError(AsyncEvent event) {
    if (engine.abandon(tag)) {
      // The client may have left, or the container may be stopping: a 503 is the honest
      // answer for whoever is still there, and writing to a closed connection is harmless.
      answerAndComplete(Outcome.EXPIRED);
    } else {
      failed = true;
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    if (tag.outcome() != null) {
      return;
    }
    if (engine.abandon(tag)) {
      // Completed by the container while still queued (an error it handled itself).
      finisher.finish(request, tag, Outcome.EXPIRED);
      return;
    }
    finisher.finish(request, tag, failed ? Outcome.FAILED : Outcome.COMPLETED);
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // The application went async again on the resumed dispatch: keep listening.
    event.getAsyncContext().addListener(this);
  }
}
