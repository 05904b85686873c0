package org.overloadcontrol.it.serverlog;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.servlet.DefaultRejectionHandler;
import org.overloadcontrol.servlet.RejectionHandler;

/**
 * The filter's default answer to a refusal, which also leaves the refusal's reason under {@link
 * ServerRequestLog#REJECTION_ATTRIBUTE} for the server-side request log: the experiments name it
 * as the filter's {@code rejectionHandler} to tell which of the filter's paths refused a request
 * (a full queue, an expired wait, the rate), without changing what the client gets.
 */
public final class ReasonTellingRejectionHandler implements RejectionHandler {

  private final RejectionHandler answer = new DefaultRejectionHandler();

  @Override
  public void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
      throws IOException, ServletException {
    request.setAttribute(ServerRequestLog.REJECTION_ATTRIBUTE, rejection.reason().code());
    answer.reject(request, response, rejection);
  }
}
