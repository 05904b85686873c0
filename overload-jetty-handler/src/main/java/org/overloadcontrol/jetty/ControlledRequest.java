package org.overloadcontrol.jetty;

import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.bandwidth.BandwidthTicket;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.pipeline.Delay;
import org.overloadcontrol.pipeline.Exchange;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.queue.Waiter;
import org.overloadcontrol.virtualqueue.QueueAnswer;
import org.overloadcontrol.virtualqueue.VirtualQueueFrontEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request under overload control on Jetty's core API, from its decision to its one outcome.
 * The Jetty counterpart of the filter's {@code SuspendedRequest}: it only translates, the engine
 * decides.
 *
 * <p>Completion. The wrapped handler gets {@link #completion}, a {@link Callback.Nested} that
 * reports the outcome to the engine (succeeded: {@code COMPLETED}, failed: {@code FAILED}) and
 * then completes Jetty's callback. Jetty completes a callback when the response is done, so the
 * response time is measured to the last byte written, also for handlers that answer
 * asynchronously, and the execution permit comes back then, not when {@code handle} returns.
 *
 * <p>Waiting. A request that must wait is held by returning {@code true} from {@code handle}
 * without calling the wrapped handler (as Jetty's {@code QoSHandler} does): Jetty keeps the
 * exchange open and no thread waits. The engine's queue then owns it and calls back exactly
 * once: {@link #resumed} runs the wrapped handler on the server's executor (never on the thread
 * that released the permit, which may be deep in another request's completion), and
 * {@link #expired} writes the 503. A client that leaves or a connection that times out while
 * the request waits reaches {@link #accept} (Jetty's failure listener), which takes it out of
 * its queue only if it is still there; whoever removes it from the queue answers it, so a
 * deadline timer and a failure racing each other cannot both answer.
 *
 * <p>Delaying. A request of a group over its bandwidth share is held, like a waiting one, by
 * returning {@code true}; the engine's {@link Delay} times it and lets one of the timer, the
 * client leaving and the stop act: {@link #delayEnded} asks admission on the server's executor,
 * {@link #cutShort} answers 503.
 *
 * <p>Every path ends in {@link #finish}, the engine's {@link Exchange#finish}: the first call
 * settles the outcome and tells the features that measure completions, with the bytes Jetty
 * counted for the response ({@link Response#getContentBytesWritten}); a second report, a
 * failure after a refusal, say, is ignored.
 */
final class ControlledRequest implements Waiter.Listener, Consumer<Throwable>, Delay.Target {

  private static final Logger LOG = LoggerFactory.getLogger(ControlledRequest.class);

  private final OverloadHandler handler;
  private final OverloadEngine engine;
  private final RequestTag tag;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final Callback completion;
  private final Exchange exchange;
  private volatile Delay delay;
  private volatile boolean leftWhileDelayed;

  ControlledRequest(OverloadHandler handler, OverloadEngine engine,
      VirtualQueueFrontEnd virtualQueue, RequestTag tag, Request request, Response response,
      Callback callback) {
    this.handler = handler;
    this.engine = engine;
    this.exchange = new Exchange(engine, tag, virtualQueue);
    this.tag = tag;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.completion = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        try {
          finish(Outcome.COMPLETED, Response.getContentBytesWritten(response));
        } finally {
          super.succeeded();
        }
      }

      @Override
      public void failed(Throwable x) {
        try {
          finish(Outcome.FAILED, Response.getContentBytesWritten(response));
        } finally {
          super.failed(x);
        }
      }
    };
  }

  /** The request passed the virtual queue as {@code type}; its completion is reported. */
  void passedQueue(String type) {
    exchange.passedQueue(type);
  }

  /** The request is shaped: its bytes and time are reported through {@code shaped}. */
  void shaped(BandwidthTicket shaped) {
    exchange.shaped(shaped);
  }

  RequestTag tag() {
    return tag;
  }

  Request request() {
    return request;
  }

  /**
   * Settles the outcome with the engine and, if this call settled it, reports it to the
   * features. Returns whether it settled it.
   */
  boolean finish(Outcome outcome, long bytes) {
    return exchange.finish(outcome, bytes);
  }

  /**
   * Asks admission (on the thread Jetty called the handler on) and acts on the decision.
   *
   * @return what {@code Handler.handle} returns
   */
  boolean admit() throws Exception {
    switch (engine.arrive(tag)) {
      case ADMIT -> {
        return run();
      }
      case WAIT -> suspend();
      case REJECT -> refuse(Outcome.REJECTED);
      default -> throw new IllegalStateException("unknown decision " + tag.decision());
    }
    return true;
  }

  /**
   * Asks admission for a request whose {@code handle} has already returned true (back from a
   * bandwidth delay), on one of the server's threads.
   */
  void admitLater() {
    switch (engine.arrive(tag)) {
      case ADMIT -> runResumed();
      case WAIT -> suspend();
      case REJECT -> refuse(Outcome.REJECTED);
      default -> throw new IllegalStateException("unknown decision " + tag.decision());
    }
  }

  /** Answers the virtual queue's waiting page or refusal and settles the outcome first. */
  void answerQueue(QueueAnswer answer) {
    finish(answer.waiting() ? Outcome.REDIRECTED : Outcome.REJECTED, 0L);
    JettyAnswers.write(response, answer, callback);
  }

  /** Answers a bandwidth refusal (429 or 403) and settles the outcome first. */
  void refuseShare(ShapingDecision refusal) {
    finish(Outcome.REJECTED, 0L);
    JettyAnswers.write(response, refusal.refusal(request.getHeaders().get("Accept"),
        request.getHttpURI().getPath()), callback);
  }

  /**
   * Holds a request of a group over its bandwidth share for its delay ({@link Delay}): the
   * handler has returned true, no thread waits, and {@link #delayEnded} goes on to admission.
   */
  void delay(OverloadRuntime runtime, ShapingDecision shaping) {
    // A client may leave before the delay exists or after: the flag and the field, both
    // volatile and written before the other is read, let one of the two sides see the other.
    request.addFailureListener(failure -> {
      leftWhileDelayed = true;
      Delay held = delay;
      if (held != null && held.cut("abandoned")) {
        LOG.debug("overload-control: delayed request failed", failure);
      }
    });
    delay = runtime.delay(tag, shaping, this);
    if (leftWhileDelayed) {
      delay.cut("abandoned");
    }
  }

  /** The delay is over, on the timer's thread: admission runs on the server's executor. */
  @Override
  public void delayEnded() {
    try {
      request.getContext().execute(this::admitLater);
    } catch (RejectedExecutionException e) {
      LOG.debug("overload-control: delayed request could not be dispatched", e);
      engine.refuse(tag, "shutdown");
      refuse(Outcome.EXPIRED);
    }
  }

  /** The delay was cut short (the client left, or the stop): 503, EXPIRED. */
  @Override
  public void cutShort() {
    refuse(Outcome.EXPIRED);
  }

  /** Admitted with a permit: runs the wrapped handler on this (Jetty's) thread. */
  boolean run() throws Exception {
    boolean handled;
    try {
      handled = handler.handleNext(request, response, completion);
    } catch (Throwable x) {
      // Jetty's contract: a handler that throws has not completed the callback and will not;
      // Jetty answers 500 with its own callback, so the outcome is settled here.
      finish(Outcome.FAILED, -1L);
      throw x;
    }
    if (!handled) {
      // Nobody took the request: Jetty answers 404 with its own callback, never ours.
      finish(Outcome.COMPLETED, -1L);
    }
    return handled;
  }

  /** Admitted but no permit is free: hold the request without a thread and queue it. */
  void suspend() {
    // Registered before enqueueing: a client may leave at any moment after.
    request.addFailureListener(this);
    if (!engine.enqueue(tag, this)) {
      refuse(Outcome.REJECTED);
    }
  }

  /** Answers 503 for a refused or expired request and settles its outcome. */
  void refuse(Outcome outcome) {
    finish(outcome, 0L);
    handler.answerRefusal(request, response, callback, tag);
  }

  @Override
  public void resumed(Waiter waiter) {
    try {
      request.getContext().execute(this::runResumed);
    } catch (RejectedExecutionException e) {
      // The server is stopping and takes no more tasks. The permit must come back, and this
      // is the only place that knows.
      LOG.debug("overload-control: resumed request could not be dispatched", e);
      engine.refuse(tag, "shutdown");
      refuse(Outcome.EXPIRED);
    }
  }

  void runResumed() {
    try {
      if (!handler.handleNext(request, response, completion)) {
        Response.writeError(request, response, completion, HttpStatus.NOT_FOUND_404);
      }
    } catch (Throwable x) {
      // We returned true long ago, so Jetty will not answer for us: settle, then send 500.
      finish(Outcome.FAILED, -1L);
      Response.writeError(request, response, completion, x);
    }
  }

  @Override
  public void expired(Waiter waiter) {
    refuse(Outcome.EXPIRED);
  }

  /**
   * Jetty's failure listener: the client left, the connection failed or timed out, or the
   * server is stopping its connectors. A request still waiting leaves its queue and is answered
   * 503 like an expired one: when the connection is gone the write fails and Jetty fails the
   * callback; when it is not (a stopping server), the client gets the 503 rather than the 500
   * Jetty would write for a failed callback.
   */
  @Override
  public void accept(Throwable failure) {
    if (engine.abandon(tag)) {
      LOG.debug("overload-control: waiting request failed", failure);
      refuse(Outcome.EXPIRED);
    }
  }

  Callback completion() {
    return completion;
  }
}
