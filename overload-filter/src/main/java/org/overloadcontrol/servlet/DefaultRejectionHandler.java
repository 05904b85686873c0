package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * The default answer to a refused request: 503 Service Unavailable, or 429 Too Many Requests
 * where {@link Rejection#status()} says (on Tomcat, by default), with {@code Retry-After},
 * {@code Cache-Control: no-store}, and a body the client can read. A client that accepts
 * {@code text/html} (a browser) gets a short page; any other gets an RFC 9457
 * {@code application/problem+json} body with the retry time. The bytes come from the pipeline's
 * {@link StepResponses}, which the Jetty handler and the Jakarta REST feature send as well.
 */
public final class DefaultRejectionHandler implements RejectionHandler {

  @Override
  public void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
      throws IOException {
    ServletAnswers.reject(request, response, rejection);
  }

  static boolean wantsHtml(String accept) {
    return StepResponses.wantsHtml(accept);
  }
}
