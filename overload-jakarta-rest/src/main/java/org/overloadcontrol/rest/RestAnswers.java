package org.overloadcontrol.rest;

import jakarta.ws.rs.core.Response;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.engine.Answer;
import org.overloadcontrol.pipeline.ContainerResponse;
import org.overloadcontrol.pipeline.StepResponses;

/**
 * A Jakarta REST response being built, as the pipeline's {@link StepResponses} writes an
 * {@link Answer} or a refusal onto it: a filter answers with {@code abortWith} and a new
 * response, which holds nothing to reset, and so sends what the servlet filter and the Jetty
 * handler write on their reset one.
 */
final class RestAnswers implements ContainerResponse<RuntimeException> {

  private final Response.ResponseBuilder response = Response.ok();

  private RestAnswers() {}

  /** {@code answer} as a new response. */
  static Response of(Answer answer) {
    RestAnswers built = new RestAnswers();
    StepResponses.answer(answer, built);
    return built.response.build();
  }

  /** The default refusal as a new response. */
  static Response refusal(Rejection rejection, String accept, String requestUri) {
    RestAnswers built = new RestAnswers();
    StepResponses.refuse(rejection, accept, requestUri, built);
    return built.response.build();
  }

  /** Never: the response is built, not written, until the filter hands it over. */
  @Override
  public boolean isCommitted() {
    return false;
  }

  /** A new response holds nothing the request set before. */
  @Override
  public void reset() {}

  @Override
  public void status(int status) {
    response.status(status);
  }

  @Override
  public void header(String name, String value) {
    response.header(name, value);
  }

  @Override
  public void body(String contentType, byte[] body) {
    response.type(contentType).entity(body);
  }
}
