package org.overloadcontrol.rest;

import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.internal.pipeline.ContainerResponse;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * A Jakarta REST response being built, as the pipeline's {@link StepResponses} writes an
 * answer or a refusal onto it: a filter answers with {@code abortWith} and a new
 * response, which holds nothing to reset, and so sends what the servlet filter and the Jetty
 * handler write on their reset one.
 */
final class RestAnswers implements ContainerResponse<RuntimeException> {

  private final Response.ResponseBuilder response = Response.ok();

  private RestAnswers() {}

  /** The answer of an {@code ANSWER} step as a new response. */
  static Response of(Step step) {
    RestAnswers built = new RestAnswers();
    StepResponses.answer(step, built);
    return built.response.build();
  }

  /** The default refusal as a new response. */
  static Response rejection(Rejection rejection, String accept, String requestUri) {
    RestAnswers built = new RestAnswers();
    StepResponses.reject(rejection, accept, requestUri, built);
    return built.response.build();
  }

  /** A new response holds nothing the request set before, and is not sent until returned. */
  @Override
  public boolean write(
      int status, List<Map.Entry<String, String>> headers, String contentType, byte[] body) {
    response.status(status).type(contentType).entity(body);
    headers.forEach(h -> response.header(h.getKey(), h.getValue()));
    return true;
  }
}
