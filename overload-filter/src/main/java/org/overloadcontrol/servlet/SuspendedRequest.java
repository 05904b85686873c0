package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.pipeline.Carrier;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.Step;

/**
 * A request the filter suspended with servlet async, from the suspension to its one outcome:
 * held by the engine ({@link Exchange#hold}: a bandwidth delay, a wait for a permit), then run
 * by {@link AsyncContext#dispatch()} on the container's pool; or one whose application went
 * async itself. It is the filter's {@link Carrier}: it only carries out the engine's later step.
 *
 * <p>Why nothing is decided on the re-dispatch: the filter is declared, as README shows, for the
 * REQUEST dispatch only, and the container does not pass an ASYNC dispatch through a filter not
 * mapped to it. So the engine decides before the dispatch, the request is marked running when
 * it is dispatched, and its outcome comes from this listener, which the container calls whatever
 * the mapping: {@link #onComplete}, with the exception the container recorded on the request
 * ({@link RequestDispatcher#ERROR_EXCEPTION}) or reported in {@link #onError} making it FAILED.
 *
 * <p>States: {@code HELD} → {@code RUNNING} (dispatched) → {@code SETTLED}. The engine's later
 * step, the client leaving, the container's timeout and the filter stopping may race; each
 * moves the state by compare-and-set, so exactly one of them acts, and the exchange settles the
 * outcome once whatever happens.
 */
final class SuspendedRequest implements Carrier, AsyncListener {

  /** Request attribute under which the filter finds this request on a later dispatch. */
  static final String ATTRIBUTE = SuspendedRequest.class.getName();

  /** How the filter answers a refused request: through its rejection handler, never throwing. */
  @FunctionalInterface
  interface Rejecter {
    void answer(HttpServletRequest request, HttpServletResponse response, Exchange exchange);
  }

  private static final OverloadLog LOG = OverloadLog.get(SuspendedRequest.class);

  private enum State {
    HELD,
    RUNNING,
    SETTLED
  }

  private final Exchange exchange;
  private final AsyncContext async;
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final Rejecter rejecter;
  private final Registry pending;
  private final AtomicReference<State> state;
  private volatile boolean failed;

  /** When the resumed dispatch's application returned ({@link #returned}), on the engine's clock. */
  private volatile long returnedNanos = Exchange.RETURNED_NOW;

  /** Whether the missing ASYNC mapping was logged (once per filter class loader). */
  private static final AtomicBoolean NO_ASYNC_DISPATCH_LOGGED = new AtomicBoolean();

  /** Whether this request was resumed with a dispatch, and whether the filter saw it run. */
  private volatile boolean dispatched;

  private volatile boolean dispatchSeen;

  /** Watches the connection of a held request for its client leaving (Jetty); or null. */
  private volatile JettyClientWatch watch;

  private SuspendedRequest(
      Exchange exchange,
      AsyncContext async,
      HttpServletRequest request,
      HttpServletResponse response,
      Rejecter rejecter,
      Registry pending,
      State initial) {
    this.exchange = exchange;
    this.async = async;
    this.request = request;
    this.response = response;
    this.rejecter = rejecter;
    this.pending = pending;
    this.state = new AtomicReference<>(initial);
    pending.add(this);
  }

  /** A request the engine holds: pass it to {@link Exchange#hold} next. */
  static SuspendedRequest held(
      Exchange exchange,
      AsyncContext async,
      HttpServletRequest request,
      HttpServletResponse response,
      Rejecter rejecter,
      Registry pending) {
    return new SuspendedRequest(exchange, async, request, response, rejecter, pending, State.HELD);
  }

  /**
   * A request whose application went async itself on its first dispatch: its outcome comes
   * when its response completes, and the filter's stop settles it if the container never says.
   */
  static SuspendedRequest running(
      Exchange exchange,
      AsyncContext async,
      HttpServletRequest request,
      HttpServletResponse response,
      Rejecter rejecter,
      Registry pending) {
    SuspendedRequest s =
        new SuspendedRequest(exchange, async, request, response, rejecter, pending, State.RUNNING);
    if (pending.stopped()) {
      // Registered after the stop looked: settle as the stop would have.
      s.settleRunningAtShutdown();
    }
    return s;
  }

  /** The application threw on a dispatch the filter saw (it is mapped to ASYNC too). */
  void markFailed() {
    failed = true;
  }

  /**
   * Watches the connection for the client leaving while the request is held, where the
   * container lets the filter see it (Jetty): the container's listeners do not say.
   */
  void watchClient() {
    watch = JettyClientWatch.start(request, this::clientClosed);
  }

  private void clientClosed() {
    if (state.get() == State.HELD) {
      exchange.left();
    }
  }

  @Override
  public void carry(Step later) {
    JettyClientWatch held = watch;
    if (held != null && held.stop()) {
      // The watch read a byte of a pipelined request, which this connection cannot parse now.
      response.setHeader("Connection", "close");
    }
    if (later.kind() == Step.Kind.RUN) {
      run();
    } else if (state.compareAndSet(State.HELD, State.SETTLED)) {
      answerAndSettle(later);
    }
  }

  /** Holds a permit (or needs none): mark running, then let the container run it. */
  private void run() {
    if (!state.compareAndSet(State.HELD, State.RUNNING)) {
      return;
    }
    if (pending.stopped()) {
      // A timer or a resume raced the filter's stop, which may already have settled the
      // running requests: this one has not run, so it is answered like a waiting one. The
      // state is written before the flag is read here, and the flag before the states there,
      // so one of the two sees the other; the compare-and-set lets one of them settle it.
      if (state.compareAndSet(State.RUNNING, State.SETTLED)) {
        answerAndSettle(exchange.notCarried(RejectionReason.SHUTDOWN));
      }
      return;
    }
    try {
      request.setAttribute(ATTRIBUTE, this);
      dispatched = true;
      async.dispatch();
    } catch (RuntimeException e) {
      // IllegalStateException when the request has ended; Jetty throws NullPointerException
      // for a request it has recycled, and a stopping Tomcat UnsupportedOperationException.
      // None may escape: this runs inside the queues' hand-over of a permit, which must go on
      // to the next waiter. The container will not run it, so the permit must come back; it
      // has not run, so it is answered 503 like a waiting request.
      state.set(State.SETTLED);
      answerAndSettle(exchange.notCarried(RejectionReason.SHUTDOWN));
    }
  }

  /**
   * After the engine's shutdown (which refused every held request): one that runs is not
   * touched, nothing is written under it. But Jetty does not call the listeners of a request
   * that was still running when its context stopped (measured: 4 of 4 never reported), so its
   * outcome is settled here, FAILED, since the container ended it unanswered; a completion that
   * does reach us later counts nothing twice.
   */
  void settleRunningAtShutdown() {
    if (state.compareAndSet(State.RUNNING, State.SETTLED)) {
      settleRun(true);
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
   * The client left or the container gave up on the request. Still held: it leaves its delay
   * or queue and the engine refuses it (writing to a closed connection is harmless; a client
   * still there, e.g. at a container's stop, gets an honest answer). Running: the
   * application's response failed.
   */
  private void leftOrEnded() {
    if (state.get() == State.HELD) {
      exchange.left();
    } else if (state.get() == State.RUNNING) {
      failed = true;
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    if (state.get() == State.HELD) {
      // Completed by the container while still held (an error it handled itself).
      exchange.left();
    } else if (state.compareAndSet(State.RUNNING, State.SETTLED)) {
      boolean threw =
          failed || request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable;
      if (dispatched && !dispatchSeen && NO_ASYNC_DISPATCH_LOGGED.compareAndSet(false, true)) {
        LOG.warn(
            "overload-control: the filter is not mapped for ASYNC dispatches, so a request that"
                + " waited is timed from its hand-over and the container's time to run it counts"
                + " as the application's; add <dispatcher>REQUEST</dispatcher> and"
                + " <dispatcher>ASYNC</dispatcher> to its <filter-mapping>");
      }
      settleRun(threw);
    }
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // The application went async again on the resumed dispatch: keep listening.
    event.getAsyncContext().addListener(this);
  }

  private void answerAndSettle(Step refused) {
    // Settled before the answer is written, as on the first dispatch (ServletSteps.reject).
    exchange.settle(refused, 0L);
    try {
      rejecter.answer(request, response, exchange);
    } finally {
      pending.remove(this);
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
    return state.get() + "/" + exchange.outcomeText();
  }

  /** The resumed request's dispatch runs the application now, on the current thread. */
  void running() {
    dispatchSeen = true;
    if (state.get() == State.RUNNING) {
      exchange.running();
    }
  }

  /**
   * The resumed dispatch's application went async again: the thread goes back to the container
   * while the request runs on, so its permit may lapse ({@link Exchange#detached}).
   */
  void detached() {
    if (state.get() == State.RUNNING) {
      exchange.detached();
    }
  }

  /** Leaves the registry without settling: the caller settles the outcome itself. */
  void forget() {
    pending.remove(this);
  }

  private void settleRun(boolean failed) {
    pending.remove(this);
    exchange.settleRun(failed, byteCount(), returnedNanos);
  }

  /**
   * The resumed dispatch's application returned without going async again: its response is
   * done but for the container's completion of the async cycle, which under load (its own
   * locks, a busy thread pool) took hundreds of milliseconds that were not the application's.
   */
  void returned() {
    if (state.get() == State.RUNNING) {
      returnedNanos = exchange.readClock();
    }
  }

  private long byteCount() {
    // The bytes from the counter, never from the request: a container that recycled it (Jetty,
    // once stopped) must not keep an outcome from being settled.
    return response instanceof CountingResponse counting ? counting.byteCount() : -1L;
  }

  /**
   * The filter's requests that are suspended, held or running on a re-dispatch, whose outcome
   * is not settled yet; and whether the filter has stopped.
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
