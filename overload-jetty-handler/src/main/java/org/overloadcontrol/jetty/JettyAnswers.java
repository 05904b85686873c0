package org.overloadcontrol.jetty;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.internal.pipeline.ContainerResponse;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * A Jetty core {@link Response} as the pipeline's {@link StepResponses} writes the engine's
 * container-free answers (refusals, virtual-queue pages) onto it, so the handler sends the bytes
 * the servlet filter sends; the write completes the callback.
 */
final class JettyAnswers implements ContainerResponse<RuntimeException> {

  private final Response response;
  private final Callback callback;

  private JettyAnswers(Response response, Callback callback) {
    this.response = response;
    this.callback = callback;
  }

  /** The answer of an {@code ANSWER} step (a virtual-queue page); completes {@code callback}. */
  static void answer(Response response, Step step, Callback callback) {
    written(StepResponses.answer(step, new JettyAnswers(response, callback)), callback);
  }

  /**
   * The waiting page holding the form {@code fields} read for it ({@link
   * StepResponses#answerKeeping}; null gives the step's fallback); completes {@code callback}.
   */
  static void keeping(
      Response response,
      Exchange exchange,
      List<Map.Entry<String, String>> fields,
      Callback callback) {
    written(
        StepResponses.answerKeeping(exchange, fields, new JettyAnswers(response, callback)),
        callback);
  }

  /** The default answer to a refused or expired request: 503 and the engine's body. */
  static void rejection(
      Request request, Response response, Callback callback, Rejection rejection) {
    written(
        StepResponses.reject(
            rejection,
            request.getHeaders().get(HttpHeader.ACCEPT),
            request.getHttpURI().getPath(),
            new JettyAnswers(response, callback)),
        callback);
  }

  private static void written(boolean written, Callback callback) {
    if (!written) {
      callback.failed(new IllegalStateException("response committed before the answer"));
    }
  }

  /** Written without blocking: Jetty completes the callback once the bytes are out. */
  @Override
  public boolean write(
      int status, List<Map.Entry<String, String>> headers, String contentType, byte[] body) {
    if (response.isCommitted()) {
      return false;
    }
    response.reset();
    HttpFields.Mutable fields = response.getHeaders();
    headers.forEach(h -> fields.add(h.getKey(), h.getValue()));
    fields.put(HttpHeader.CONTENT_TYPE, contentType);
    fields.put(HttpHeader.CONTENT_LENGTH, body.length);
    response.setStatus(status);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
