package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.engine.RefusalBody;

/**
 * The default answer to a refused request: 503 Service Unavailable with {@code Retry-After},
 * {@code Cache-Control: no-store}, and a body the client can read. A client that accepts
 * {@code text/html} (a browser) gets a short page; any other gets an RFC 9457
 * {@code application/problem+json} body with the retry time. The bytes come from the engine's
 * {@link RefusalBody}, which the Jetty handler sends as well.
 */
public final class DefaultRejectionHandler implements RejectionHandler {

  @Override
  public void reject(HttpServletRequest request, HttpServletResponse response,
      Rejection rejection) throws IOException {
    if (response.isCommitted()) {
      return;
    }
    response.reset();
    RefusalBody refusal = RefusalBody.serviceUnavailable(request.getHeader("Accept"),
        request.getRequestURI(), rejection.endpoint(), rejection.requestClass(),
        rejection.reason(), rejection.retryAfterSeconds());
    response.setStatus(refusal.status());
    response.setHeader("Retry-After", Long.toString(refusal.retryAfterSeconds()));
    response.setHeader("Cache-Control", "no-store");
    response.setContentType(refusal.contentType());
    response.setContentLength(refusal.body().length);
    response.getOutputStream().write(refusal.body());
    response.flushBuffer();
  }

  static boolean wantsHtml(String accept) {
    return RefusalBody.wantsHtml(accept);
  }
}
