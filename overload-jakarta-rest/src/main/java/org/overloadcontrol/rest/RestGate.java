package org.overloadcontrol.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.RequestPipeline;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * The filter-only mode's adapter for one resource method (one endpoint): it hands each request
 * to the engine's {@link RequestPipeline} and carries out the step with Jakarta REST's own
 * primitives. A refusal or an answer is {@code abortWith}; a request to run goes on, with its
 * {@link OverloadContext} in the request property {@link OverloadContext#ATTRIBUTE}.
 *
 * <p>Settle. A response without an entity is settled in the response filter; one with an
 * entity after its bytes are written ({@link WriterInterceptor}, which also counts them for
 * bandwidth shares), so the response time runs to the end of the entity's write. A response the
 * implementation made from an exception that reached it (status 500) is {@code FAILED}; a write
 * that throws (the client left) is {@code FAILED}. The engine takes the first report only, so a
 * request ends in exactly one outcome whichever of these runs.
 *
 * <p>Wait. A filter cannot be suspended, so the pipeline holds a request that has to wait on its
 * own thread, bounded by its class's longest wait ({@code queue.nonAsync=block}, the default), or
 * refuses it ({@code reject}).
 */
final class RestGate implements ContainerRequestFilter, ContainerResponseFilter, WriterInterceptor {

  /** The request property holding the running request's {@link Exchange}. */
  static final String EXCHANGE = RestGate.class.getName() + ".exchange";

  /**
   * The request property holding whether the response filter found the request failed (a 500),
   * for the write.
   */
  private static final String FAILED = RestGate.class.getName() + ".failed";

  private static final int INTERNAL_SERVER_ERROR = 500;

  private final RequestPipeline pipeline;
  private final String endpoint;

  RestGate(RequestPipeline pipeline, String endpoint) {
    this.pipeline = pipeline;
    this.endpoint = endpoint;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    RestRequestView view = new RestRequestView(request);
    Exchange exchange = pipeline.start(view, endpoint);
    Step step = exchange.step();
    switch (step.kind()) {
      case PASS -> {}
      case RUN -> {
        request.setProperty(OverloadContext.ATTRIBUTE, exchange.context());
        request.setProperty(EXCHANGE, exchange);
        exchange.running();
      }
      case ANSWER -> {
        // Settled before the answer, as a refusal is (see refuse).
        exchange.settle(step, 0L);
        request.abortWith(RestAnswers.of(step));
      }
      // Not given for a view that cannot suspend; settled as one that could not be.
      case DELAY, WAIT ->
          reject(request, view, exchange, exchange.notCarried(RejectionReason.NO_ASYNC));
      default -> reject(request, view, exchange, step);
    }
  }

  /**
   * Settles the outcome, then aborts with the refusal. The order is every adapter's: here the
   * response is sent only after the filter returns, but a client that has its answer finds the
   * outcome counted and a held permit back in every adapter alike.
   */
  private static void reject(
      ContainerRequestContext request, RestRequestView view, Exchange exchange, Step step) {
    exchange.settle(step, 0L);
    request.abortWith(
        RestAnswers.rejection(
            exchange.rejection(), request.getHeaderString(HttpHeaders.ACCEPT), view.requestUri()));
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (!(request.getProperty(EXCHANGE) instanceof Exchange exchange)) {
      return;
    }
    StepResponses.ofRun(exchange, response.getHeaders()::add);
    boolean failed = response.getStatus() == INTERNAL_SERVER_ERROR;
    if (response.hasEntity() && !"HEAD".equals(request.getMethod())) {
      request.setProperty(FAILED, failed);
    } else {
      request.removeProperty(EXCHANGE);
      exchange.settleRun(failed, 0L);
    }
  }

  @Override
  public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
    if (!(context.getProperty(EXCHANGE) instanceof Exchange exchange)) {
      context.proceed();
      return;
    }
    context.removeProperty(EXCHANGE);
    Counted counted = null;
    if (exchange.countsBytes()) {
      counted = new Counted(context.getOutputStream());
      context.setOutputStream(counted);
    }
    boolean failed = true;
    try {
      context.proceed();
      failed = Boolean.TRUE.equals(context.getProperty(FAILED));
    } finally {
      exchange.settleRun(failed, counted == null ? -1L : counted.bytes);
    }
  }

  /** Counts the entity's bytes for a request whose bandwidth share measures them. */
  private static final class Counted extends FilterOutputStream {
    private long bytes;

    Counted(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      bytes += len;
    }
  }
}
