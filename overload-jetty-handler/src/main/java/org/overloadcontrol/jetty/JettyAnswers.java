package org.overloadcontrol.jetty;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.engine.Answer;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.pipeline.ResponseHeaders;

/**
 * Writes the engine's container-free {@link Answer}s (refusals, virtual-queue pages) onto a
 * Jetty core {@link Response}, so the handler sends the bytes the servlet filter sends.
 */
final class JettyAnswers {

  private JettyAnswers() {}

  /**
   * The engine's {@link Answer} (a refusal, a virtual-queue page); completes {@code callback}.
   */
  static void write(Response response, Answer answer, Callback callback) {
    if (response.isCommitted()) {
      callback.failed(new IllegalStateException("response committed before the answer"));
      return;
    }
    response.reset();
    response.setStatus(answer.status());
    ResponseHeaders.ofAnswer(answer, response.getHeaders()::add);
    body(response, answer.contentType(), answer.body(), callback);
  }

  /** The default answer to a refused or expired request: 503 and the engine's body. */
  static void refusal(Request request, Response response, Callback callback, RequestTag tag) {
    write(
        response,
        Answer.of(tag, request.getHeaders().get(HttpHeader.ACCEPT), request.getHttpURI().getPath()),
        callback);
  }

  private static void body(Response response, String contentType, byte[] body, Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
