package org.overloadcontrol.jetty;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.pipeline.Carrier;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * One request under overload control on Jetty's core API: it carries out the engine's steps
 * ({@link Step}) with Jetty's primitives and reports the end to the engine's {@link Exchange}.
 * The Jetty counterpart of the filter's {@code SuspendedRequest}; the engine decides.
 *
 * <p>Completion. The wrapped handler gets {@link #completion}, a {@link Callback.Nested} that
 * reports the outcome (succeeded: {@code COMPLETED}, failed: {@code FAILED}) and then completes
 * Jetty's callback. Jetty completes a callback when the response is done, so the response time
 * is measured to the last byte written, also for handlers that answer asynchronously, and the
 * execution permit comes back then, not when {@code handle} returns.
 *
 * <p>Holding. A request the engine holds ({@code DELAY}, {@code WAIT}) is held by returning
 * {@code true} from {@code handle} without calling the wrapped handler (as Jetty's
 * {@code QoSHandler} does): Jetty keeps the exchange open and no thread waits. The engine then
 * hands one later step to {@link #carry}: a {@code RUN} runs the wrapped handler on the
 * server's executor (never on the thread that released the permit, which may be deep in another
 * request's completion), a {@code REJECT} writes the 503. A failure Jetty reports while the
 * request is held (Jetty's failure listener: the connection failed or timed out, the server is
 * stopping its connectors), or the client closing an HTTP/1 connection ({@link ClientWatch}),
 * takes it out of its delay or queue ({@link Exchange#left}).
 */
final class ControlledRequest implements Carrier {

  private static final OverloadLog LOG = OverloadLog.get(ControlledRequest.class);

  private final OverloadHandler handler;
  private final Exchange exchange;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final Callback completion;

  /** Watches the connection of a held request for its client leaving; null when not held. */
  private volatile ClientWatch watch;

  ControlledRequest(
      OverloadHandler handler,
      Exchange exchange,
      Request request,
      Response response,
      Callback callback) {
    this.handler = handler;
    this.exchange = exchange;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.completion =
        new Callback.Nested(callback) {
          @Override
          public void succeeded() {
            try {
              settleRun(false);
            } finally {
              super.succeeded();
            }
          }

          @Override
          public void failed(Throwable x) {
            try {
              settleRun(true);
            } finally {
              super.failed(x);
            }
          }
        };
  }

  private void settleRun(boolean failed) {
    exchange.settleRun(failed, Response.getContentBytesWritten(response));
  }

  /**
   * Carries out the first step on the thread Jetty called the handler on.
   *
   * @return what {@code Handler.handle} returns
   */
  boolean first(Step step) throws Exception {
    // A refusal or an answer resets the response, and these with it (JettyAnswers).
    StepResponses.ofRun(exchange, response.getHeaders()::add);
    switch (step.kind()) {
      case RUN -> {
        return run();
      }
      case ANSWER -> {
        // Settled before the answer, which may be written later (a form read first): see reject.
        exchange.settle(step, 0L);
        int formMax = exchange.formMaxBytes();
        if (formMax < 0) {
          JettyAnswers.answer(response, step, callback);
        } else {
          // A browser's form to keep on the waiting page: read without holding a thread.
          FormFields.onFields(
              request,
              FormFields.getFormEncodedCharset(request),
              FormFields.MAX_FIELDS_DEFAULT,
              formMax,
              new Promise.Invocable<Fields>() {
                @Override
                public void succeeded(Fields fields) {
                  JettyAnswers.keeping(response, exchange, entries(fields), callback);
                }

                @Override
                public void failed(Throwable failure) {
                  JettyAnswers.keeping(response, exchange, null, callback);
                }
              });
        }
      }
      case DELAY, WAIT -> {
        // Registered before the hold: a client may leave at any moment after.
        request.addFailureListener(
            failure -> {
              if (exchange.left()) {
                LOG.debug("overload-control: held request failed", failure);
              }
            });
        // Jetty's failure listeners do not hear an HTTP/1 client close its connection while
        // the request is held: the watch does.
        watch = ClientWatch.start(request, this::clientClosed);
        exchange.hold(this);
      }
      default -> reject(step);
    }
    return true;
  }

  /** Jetty's form fields in order, one entry per value. */
  private static List<Map.Entry<String, String>> entries(Fields fields) {
    List<Map.Entry<String, String>> list = new ArrayList<>();
    for (Fields.Field field : fields) {
      for (String value : field.getValues()) {
        list.add(Map.entry(field.getName(), value));
      }
    }
    return list;
  }

  private void clientClosed() {
    if (exchange.left()) {
      LOG.debug("overload-control: the client of a held request closed its connection");
    }
  }

  /** The engine's later step for a held request, on whatever thread decided it. */
  @Override
  public void carry(Step later) {
    ClientWatch held = watch;
    if (held != null && held.stop()) {
      // The watch read a byte of a pipelined request, which this connection cannot parse now.
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    if (later.kind() != Step.Kind.RUN) {
      reject(later);
      return;
    }
    try {
      request.getContext().execute(this::runHeld);
    } catch (RejectedExecutionException e) {
      // The server is stopping and takes no more tasks. The permit must come back, and this
      // is the only place that knows.
      LOG.debug("overload-control: held request could not be dispatched", e);
      reject(exchange.notCarried(RejectionReason.SHUTDOWN));
    }
  }

  /** Admitted with a permit: runs the wrapped handler on this (Jetty's) thread. */
  private boolean run() throws Exception {
    boolean handled;
    exchange.running();
    try {
      handled = handler.handleNext(request, response, completion);
    } catch (Throwable x) {
      // Jetty's contract: a handler that throws has not completed the callback and will not;
      // Jetty answers 500 with its own callback, so the outcome is settled here.
      exchange.settleRun(true, -1L);
      throw x;
    }
    if (!handled) {
      // Nobody took the request: Jetty answers 404 with its own callback, never ours.
      exchange.settleRun(false, -1L);
    } else {
      // Unless the callback already completed, the response goes on without this thread.
      exchange.detached();
    }
    return handled;
  }

  private void runHeld() {
    exchange.running();
    try {
      if (!handler.handleNext(request, response, completion)) {
        Response.writeError(request, response, completion, HttpStatus.NOT_FOUND_404);
      } else {
        exchange.detached();
      }
    } catch (Throwable x) {
      // We returned true long ago, so Jetty will not answer for us: settle, then send 500.
      exchange.settleRun(true, -1L);
      Response.writeError(request, response, completion, x);
    }
  }

  /**
   * Settles the outcome of a refused or expired request, then answers 503. Settled first, as in
   * every adapter: the write completes the callback and Jetty may send the response at once, so
   * a client that has its answer finds the outcome counted and a held permit back; a slow or
   * failing {@code reject} holds no permit.
   */
  private void reject(Step step) {
    exchange.settle(step, 0L);
    Rejection rejection = exchange.rejection();
    try {
      handler.reject(request, response, callback, rejection);
    } catch (RuntimeException | Error e) {
      // An override that fails must not leave the client waiting: the default answer, if the
      // response is still open.
      LOG.warn(
          "overload-control: {}.reject failed; sending the default 503",
          handler.getClass().getName(),
          e);
      if (response.isCommitted()) {
        callback.failed(e);
      } else {
        JettyAnswers.rejection(request, response, callback, rejection);
      }
    }
  }
}
