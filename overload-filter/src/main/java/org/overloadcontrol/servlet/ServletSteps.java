package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * Carries out the engine's first {@link Step} for a servlet request with the servlet API's own
 * primitives: runs the chain ({@code RUN}), suspends with {@link AsyncContext} ({@code DELAY},
 * {@code WAIT}; {@link SuspendedRequest} carries out the later step), writes an
 * {@code ANSWER}, or answers a {@code REJECT} through the {@link RejectionHandler}; and reports
 * the end to the {@link Exchange}, once.
 */
final class ServletSteps {

  private static final OverloadLog LOG = OverloadLog.get(ServletSteps.class);
  private static final RejectionHandler DEFAULT_REJECTION = new DefaultRejectionHandler();
  private static final long ASYNC_TIMEOUT_MARGIN_MILLIS = 30_000L;

  private final RejectionHandler rejectionHandler;
  private final SuspendedRequest.Registry suspended;

  ServletSteps(RejectionHandler rejectionHandler, SuspendedRequest.Registry suspended) {
    this.rejectionHandler = rejectionHandler;
    this.suspended = suspended;
  }

  /** Carries out {@code exchange.step()}, a controlled one (not {@code PASS}). */
  void carry(
      Exchange exchange,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain)
      throws IOException, ServletException {
    Step step = exchange.step();
    switch (step.kind()) {
      case RUN -> run(request, response, chain, exchange);
      case DELAY, WAIT -> hold(request, response, exchange);
      case ANSWER -> {
        // Settled before the answer is written, as a refusal is (see reject).
        exchange.settle(step, 0L);
        int formMax = exchange.formMaxBytes();
        if (formMax < 0) {
          StepResponses.answer(step, ServletAnswers.on(response));
        } else {
          StepResponses.answerKeepingBody(
              exchange,
              ServletRequestView.formBody(request, formMax),
              request.getCharacterEncoding(),
              ServletAnswers.on(response));
        }
      }
      default -> reject(request, response, exchange, step);
    }
  }

  /** The bytes counted when a feature measures them, else −1. */
  private static long byteCount(HttpServletResponse response) {
    return response instanceof CountingResponse counting ? counting.byteCount() : -1L;
  }

  /**
   * Suspends a request the engine holds (a bandwidth delay or a wait for a permit) without
   * holding the container's thread; {@link SuspendedRequest} carries out the engine's later
   * step.
   */
  private void hold(HttpServletRequest request, HttpServletResponse response, Exchange exchange)
      throws IOException, ServletException {
    AsyncContext async;
    SuspendedRequest held;
    try {
      async =
          request.isAsyncStarted()
              ? request.getAsyncContext()
              : request.startAsync(request, response);
      // The engine's timers end the hold; the container's timeout is only a safety net, set
      // later so that it never races them.
      async.setTimeout(
          TimeUnit.NANOSECONDS.toMillis(exchange.heldAtMostNanos()) + ASYNC_TIMEOUT_MARGIN_MILLIS);
      held =
          SuspendedRequest.held(
              exchange, async, request, response, this::answerRejection, suspended);
      async.addListener(held);
    } catch (IllegalStateException e) {
      // The container would not suspend the request (it is stopping, or the response is
      // already committed): refuse it now rather than leave it without an outcome.
      reject(request, response, exchange, exchange.notCarried(RejectionReason.NO_ASYNC));
      return;
    }
    request.setAttribute(SuspendedRequest.ATTRIBUTE, held);
    held.watchClient();
    exchange.hold(held);
  }

  /**
   * A dispatch after the first (async, forward, include, error): run it untouched, but note an
   * exception from a resumed request so its completion counts as failed.
   */
  static void passThrough(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request.getDispatcherType() == DispatcherType.ASYNC
        && request.getAttribute(SuspendedRequest.ATTRIBUTE) instanceof SuspendedRequest q) {
      q.running();
    }
    try {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      if (request.getAttribute(SuspendedRequest.ATTRIBUTE) instanceof SuspendedRequest q) {
        q.markFailed();
      }
      throw e;
    }
    if (request.getDispatcherType() == DispatcherType.ASYNC
        && request.getAttribute(SuspendedRequest.ATTRIBUTE) instanceof SuspendedRequest q) {
      if (request.isAsyncStarted()) {
        q.detached();
      } else {
        q.returned();
      }
    }
  }

  /** Runs the application for an admitted request and reports its completion. */
  private void run(
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain,
      Exchange exchange)
      throws IOException, ServletException {
    boolean failed = true;
    boolean settledLater = false;
    exchange.running();
    try {
      chain.doFilter(request, response);
      failed = false;
      if (request.isAsyncStarted()) {
        // The response is not done: its time and outcome are reported when it completes.
        SuspendedRequest running = null;
        try {
          AsyncContext async = request.getAsyncContext();
          running =
              SuspendedRequest.running(
                  exchange, async, request, response, this::answerRejection, suspended);
          async.addListener(running);
          settledLater = true;
          // The thread goes back to the container: a permit held long on no thread lapses.
          exchange.detached();
        } catch (IllegalStateException e) {
          // The async cycle already ended (completed on another thread, or the container is
          // stopping): nothing will call the listener, so the outcome is settled here.
          if (running != null) {
            running.forget();
          }
        }
      }
    } finally {
      if (!settledLater) {
        exchange.settleRun(failed, byteCount(response));
      }
    }
  }

  /**
   * Settles the outcome, then answers. Every adapter settles first: the answer is flushed (the
   * client may have it before this returns), and a client that has its answer finds the
   * outcome counted and a held permit back; a slow or failing rejection handler then holds no
   * permit. The bytes of a request that did not run are not measured.
   */
  private void reject(
      HttpServletRequest request, HttpServletResponse response, Exchange exchange, Step step) {
    exchange.settle(step, 0L);
    answerRejection(request, response, exchange);
  }

  /** Answers a refused or expired request through the rejection handler (never hangs). */
  private void answerRejection(
      HttpServletRequest request, HttpServletResponse response, Exchange exchange) {
    Rejection rejection = exchange.rejection();
    try {
      rejectionHandler.reject(request, response, rejection);
    } catch (IOException e) {
      // Almost always a client that reset its connection while its 503 was written: nothing
      // more can reach it, and a stack trace at warn for each would let any client flood the
      // log (measured: 258 in one chaos run).
      LOG.debug("overload-control: could not write a refusal: {}", e.toString());
    } catch (ServletException | RuntimeException e) {
      LOG.warn(
          "overload-control: rejection handler {} failed; sending the default refusal",
          rejectionHandler.getClass().getName(),
          e);
      if (!response.isCommitted()) {
        // A handler that failed must not leave the client without an answer.
        try {
          DEFAULT_REJECTION.reject(request, response, rejection);
        } catch (IOException | ServletException | RuntimeException again) {
          LOG.debug("overload-control: could not write the default refusal: {}", again.toString());
        }
      }
    }
  }
}
