package org.overloadcontrol.it.serverlog;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.servlet.RejectionHandler;

/**
 * A refusal answered 429 with the filter's {@code Retry-After} and no body, as the tuning guide
 * suggests for Tomcat, which closes the connection after every 503: the experiments name it as
 * the filter's {@code rejectionHandler} (the matrix's {@code tuned} guard) to compare the two
 * answers in one run. Like {@link ReasonTellingRejectionHandler} it tells the server log why.
 */
public final class TooManyRequestsRejectionHandler implements RejectionHandler {

  @Override
  public void reject(
      HttpServletRequest request, HttpServletResponse response, Rejection rejection) {
    request.setAttribute(ServerRequestLog.REJECTION_ATTRIBUTE, rejection.reason().code());
    response.setStatus(429);
    response.setHeader("Retry-After", Long.toString(rejection.retryAfterSeconds()));
    response.setHeader("Cache-Control", "no-store");
    response.setContentLength(0);
  }
}
