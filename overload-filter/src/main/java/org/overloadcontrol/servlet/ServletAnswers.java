package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.engine.Answer;
import org.overloadcontrol.pipeline.ResponseHeaders;

/**
 * Writes the engine's {@link Answer} (a virtual-queue page, a bandwidth refusal) onto a servlet
 * response, the same bytes the Jetty handler and the Jakarta REST feature send.
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
    ResponseHeaders.ofAnswer(answer, response::addHeader);
    response.setContentType(answer.contentType());
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
    response.flushBuffer();
  }
}
