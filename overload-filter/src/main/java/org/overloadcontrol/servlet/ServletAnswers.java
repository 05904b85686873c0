package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.engine.Answer;

/**
 * Writes the engine's {@link Answer} (a virtual-queue page, a bandwidth refusal) onto a servlet
 * response, the same bytes the Jetty handler sends.
 */
final class ServletAnswers {

  private ServletAnswers() {}

  /** Writes {@code answer} unless the response is already committed. */
  static void write(HttpServletResponse response, Answer answer) throws IOException {
    if (response.isCommitted()) {
      return;
    }
    response.reset();
    response.setStatus(answer.status());
    response.setHeader("Cache-Control", Answer.CACHE_CONTROL);
    if (answer.retryAfterSeconds() > 0) {
      response.setHeader("Retry-After", Long.toString(answer.retryAfterSeconds()));
    }
    for (String cookie : answer.setCookies()) {
      response.addHeader("Set-Cookie", cookie);
    }
    response.setContentType(answer.contentType());
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
    response.flushBuffer();
  }
}
