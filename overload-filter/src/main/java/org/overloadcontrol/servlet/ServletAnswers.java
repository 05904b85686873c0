package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.internal.pipeline.ContainerResponse;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * A servlet response as the pipeline's {@link StepResponses} writes an answer or a refusal
 * onto it, the same bytes the Jetty handler and the Jakarta REST feature send.
 */
final class ServletAnswers implements ContainerResponse<IOException> {

  private final HttpServletResponse response;

  private ServletAnswers(HttpServletResponse response) {
    this.response = response;
  }

  /** {@code response}, for {@link StepResponses#answer} to write an answer on. */
  static ServletAnswers on(HttpServletResponse response) {
    return new ServletAnswers(response);
  }

  /** Writes the default refusal unless the response is already committed. */
  static void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
      throws IOException {
    StepResponses.reject(
        rejection,
        request.getHeader("Accept"),
        request.getRequestURI(),
        new ServletAnswers(response));
  }

  @Override
  public boolean write(
      int status, List<Map.Entry<String, String>> headers, String contentType, byte[] body)
      throws IOException {
    if (response.isCommitted()) {
      return false;
    }
    response.reset();
    response.setStatus(status);
    headers.forEach(h -> response.addHeader(h.getKey(), h.getValue()));
    response.setContentType(contentType);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    response.flushBuffer();
    return true;
  }
}
