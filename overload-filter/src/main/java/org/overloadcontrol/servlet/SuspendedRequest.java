package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.engine.Decision;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.pipeline.Delay;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.queue.Waiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request the filter suspended with servlet async, from the suspension to its one outcome:
 * held for its bandwidth delay (Li &amp; Jamin), then admitted; or waiting for an execution
 * permit (LIFO-Pri); then run by {@link AsyncContext#dispatch()} on the container's pool.
 *
 * <p>Why admission happens here and not on the re-dispatch: the filter is declared, as README
 * shows, for the REQUEST dispatch only, and the container does not pass an ASYNC dispatch
 * through a filter not mapped to it. So everything the filter must decide is decided before
 * the dispatch (admission after a delay runs on the timer thread, which only takes a token or
 * a permit), the request is marked running when it is dispatched, and its outcome comes from
 * this listener, which the container calls whatever the mapping: {@link #onComplete}, with the
 * exception the container recorded on the request ({@link RequestDispatcher#ERROR_EXCEPTION})
 * or reported in {@link #onError} making it FAILED.
 *
 * <p>States: {@code DELAYED} (a {@link Delay} holds it) → {@code ADMITTING} → {@code WAITING} (in a
 * queue) → {@code RUNNING} (dispatched) → settled. The timer, the queue's resume or expiry, the
 * client leaving, the container's timeout and the filter stopping may race; each event moves
 * the state by compare-and-set, so exactly one of them acts, and the engine's
 * {@link OverloadEngine#complete} settles the outcome once whatever happens.
 */
final class SuspendedRequest implements Waiter.Listener, AsyncListener, Delay.Target {

  /** Request attribute under which the filter finds this request on a later dispatch. */
  static final String ATTRIBUTE = SuspendedRequest.class.getName();

  /** How a refusal is written; the filter's rejection handler. */
  @FunctionalInterface
  interface Refusal {
    void answer(HttpServletRequest request, HttpServletResponse response, RequestTag tag)
        throws IOException, ServletException;
  }

  /**
   * Reports an outcome once, to the engine and the features measuring completions. Built on
   * the request's thread, so it never reads the request again: a container that recycled it
   * (Jetty, once stopped) must not keep an outcome from being settled.
   */
  @FunctionalInterface
  interface Finisher {
    void finish(RequestTag tag, Outcome outcome);
  }

  private static final Logger LOG = LoggerFactory.getLogger(SuspendedRequest.class);

  private enum State { DELAYED, ADMITTING, WAITING, RUNNING, SETTLED }

  private final OverloadEngine engine;
  private final RequestTag tag;
  private final AsyncContext async;
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final Refusal refusal;
  private final Finisher finisher;
  private final Registry pending;
  private final AtomicReference<State> state;
  private volatile boolean failed;
  private volatile Delay delay;

  private SuspendedRequest(OverloadEngine engine, RequestTag tag, AsyncContext async,
      HttpServletRequest request, HttpServletResponse response, Refusal refusal, Finisher finisher,
      Registry pending, State initial) {
    this.engine = engine;
    this.tag = tag;
    this.async = async;
    this.request = request;
    this.response = response;
    this.refusal = refusal;
    this.finisher = finisher;
    this.pending = pending;
    this.state = new AtomicReference<>(initial);
    pending.add(this);
  }

  /** A request admitted but without a free permit: call {@link #enqueue} next. */
  static SuspendedRequest waiting(OverloadEngine engine, RequestTag tag, AsyncContext async,
      HttpServletRequest request, HttpServletResponse response, Refusal refusal,
      Finisher finisher, Registry pending) {
    return new SuspendedRequest(engine, tag, async, request, response, refusal, finisher,
        pending, State.ADMITTING);
  }

  /**
   * A request whose application went async itself on its first dispatch: its outcome comes
   * when its response completes, and the filter's stop settles it if the container never says.
   */
  static SuspendedRequest running(OverloadEngine engine, RequestTag tag, AsyncContext async,
      HttpServletRequest request, HttpServletResponse response, Refusal refusal,
      Finisher finisher, Registry pending) {
    SuspendedRequest s = new SuspendedRequest(engine, tag, async, request, response, refusal,
        finisher, pending, State.RUNNING);
    if (pending.stopped()) {
      // Registered after the stop looked: settle as the stop would have.
      s.settleRunningAtShutdown();
    }
    return s;
  }

  /**
   * A request of a group over its bandwidth share: held by the runtime for its delay, which
   * also cuts it short at the stop.
   */
  static SuspendedRequest delayed(OverloadRuntime runtime, RequestTag tag, AsyncContext async,
      HttpServletRequest request, HttpServletResponse response, Refusal refusal,
      Finisher finisher, Registry pending, ShapingDecision shaping) {
    SuspendedRequest s = new SuspendedRequest(runtime.engine(), tag, async, request, response,
        refusal, finisher, pending, State.DELAYED);
    s.delay = runtime.delay(tag, shaping, s);
    return s;
  }

  RequestTag tag() {
    return tag;
  }

  /** The application threw on a dispatch the filter saw (it is mapped to ASYNC too). */
  void markFailed() {
    failed = true;
  }

  /** Queues a request that got {@link Decision#WAIT}; a full queue refuses it now. */
  void enqueue() {
    if (!state.compareAndSet(State.ADMITTING, State.WAITING)) {
      return;
    }
    if (!engine.enqueue(tag, this)) {
      state.set(State.SETTLED);
      answerAndComplete(Outcome.REJECTED);
    }
  }

  /** The delay is over, on the timer's thread: on to admission (a token or a permit). */
  @Override
  public void delayEnded() {
    if (!state.compareAndSet(State.DELAYED, State.ADMITTING)) {
      return;
    }
    switch (engine.arrive(tag)) {
      case ADMIT -> run();
      case WAIT -> enqueue();
      case REJECT -> {
        state.set(State.SETTLED);
        answerAndComplete(Outcome.REJECTED);
      }
    }
  }

  @Override
  public void resumed(Waiter waiter) {
    if (state.compareAndSet(State.WAITING, State.ADMITTING)) {
      run();
    }
  }

  /** Holds a permit (or needs none): mark running, then let the container run it. */
  private void run() {
    state.set(State.RUNNING);
    if (pending.stopped()) {
      // A timer or a resume raced the filter's stop, which may already have settled the
      // running requests: this one has not run, so it is answered like a waiting one. The
      // state is written before the flag is read here, and the flag before the states there,
      // so one of the two sees the other; the compare-and-set lets one of them settle it.
      boolean mine = state.compareAndSet(State.RUNNING, State.SETTLED);
      if (mine) {
        engine.refuse(tag, "shutdown");
      }
      answerAndComplete(mine ? Outcome.EXPIRED : null);
      return;
    }
    try {
      request.setAttribute(OverloadContext.ATTRIBUTE, tag);
      request.setAttribute(ATTRIBUTE, this);
      async.dispatch();
    } catch (RuntimeException e) {
      // IllegalStateException when the request has ended; Jetty throws NullPointerException
      // for a request it has recycled, and a stopping Tomcat UnsupportedOperationException
      // ("does not support asynchronous dispatching"). None may escape: this runs inside the
      // queues' hand-over of a permit, which must go on to the next waiter.
      // The container will not run it (the request ended, or the container is stopping): the
      // permit must come back, and this is the only place that knows. It has not run, so it
      // is answered 503 like a waiting request (a client still there, as at a Tomcat stop,
      // gets an honest answer; a write to a gone one fails harmlessly), and reported as the
      // Jetty handler reports a request its server would not run any more.
      state.set(State.SETTLED);
      engine.refuse(tag, "shutdown");
      answerAndComplete(Outcome.EXPIRED);
    }
  }

  @Override
  public void expired(Waiter waiter) {
    if (state.compareAndSet(State.WAITING, State.SETTLED)) {
      answerAndComplete(Outcome.EXPIRED);
    }
  }

  /** The delay was cut short (the client left, or the stop): answer 503, EXPIRED. */
  @Override
  public void cutShort() {
    if (state.compareAndSet(State.DELAYED, State.SETTLED)) {
      answerAndComplete(Outcome.EXPIRED);
    }
  }

  /**
   * After the engine's shutdown (which cut the delays short and expired the queues, each
   * answered 503): one that runs is not touched, nothing is written under it. But Jetty does not call the listeners of a request that was still
   * running when its context stopped (measured: 4 of 4 never reported), so its outcome is
   * settled here, FAILED, since the container ended it unanswered; a completion that does
   * reach us later counts nothing twice.
   */
  void settleRunningAtShutdown() {
    if (state.compareAndSet(State.RUNNING, State.SETTLED)) {
      finish(Outcome.FAILED);
    }
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    leftOrEnded();
  }

  @Override
  public void onError(AsyncEvent event) {
    leftOrEnded();
  }

  /**
   * The client left or the container gave up on the request. Still delayed or waiting: it
   * leaves its timer or queue and is answered 503 (writing to a closed connection is
   * harmless; a client still there, e.g. at a container's stop, gets an honest answer).
   * Running: the application's response failed.
   */
  private void leftOrEnded() {
    Delay held = delay;
    if (held != null && held.cut("abandoned")) {
      return;
    }
    if (state.get() == State.WAITING && engine.abandon(tag)) {
      state.set(State.SETTLED);
      answerAndComplete(Outcome.EXPIRED);
    } else if (state.get() == State.RUNNING) {
      failed = true;
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    Delay held = delay;
    if (held != null && held.cancel()) {
      state.set(State.SETTLED);
      finish(Outcome.EXPIRED);
    } else if (state.get() == State.WAITING && engine.abandon(tag)) {
      // Completed by the container while still queued (an error it handled itself).
      state.set(State.SETTLED);
      finish(Outcome.EXPIRED);
    } else if (state.compareAndSet(State.RUNNING, State.SETTLED)) {
      boolean threw = failed
          || request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable;
      finish(threw ? Outcome.FAILED : Outcome.COMPLETED);
    }
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // The application went async again on the resumed dispatch: keep listening.
    event.getAsyncContext().addListener(this);
  }

  private void answerAndComplete(Outcome outcome) {
    try {
      refusal.answer(request, response, tag);
    } catch (IOException | ServletException | RuntimeException e) {
      LOG.debug("overload-control: could not answer a suspended request", e);
    } finally {
      finish(outcome);
      try {
        async.complete();
      } catch (RuntimeException e) {
        // Already completed (IllegalStateException), or recycled by a stopping container
        // (Tomcat, Jetty: NullPointerException). This runs inside the queues' shutdown loop and
        // the timer's tasks, which must go on to the next request.
        LOG.debug("overload-control: request already completed", e);
      }
    }
  }

  @Override
  public String toString() {
    return state.get() + "/" + tag.outcome();
  }

  /** Leaves the registry without settling: the caller settles the outcome itself. */
  void forget() {
    pending.remove(this);
  }

  /** Settles {@code outcome}; null when the outcome was settled elsewhere already. */
  private void finish(Outcome outcome) {
    pending.remove(this);
    if (outcome != null) {
      finisher.finish(tag, outcome);
    }
  }

  /**
   * The filter's requests that are suspended, delayed or running on a re-dispatch, whose
   * outcome is not settled yet; and whether the filter has stopped.
   */
  static final class Registry {
    private final Set<SuspendedRequest> requests = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;

    void add(SuspendedRequest r) {
      requests.add(r);
    }

    void remove(SuspendedRequest r) {
      requests.remove(r);
    }

    boolean stopped() {
      return stopped;
    }

    /**
     * Marks the filter stopped, first: a request registered from now on sees it and settles
     * itself; one registered before is in the snapshots taken after this.
     */
    void stop() {
      stopped = true;
    }

    List<SuspendedRequest> snapshot() {
      return List.copyOf(requests);
    }

    int size() {
      return requests.size();
    }
  }
}
