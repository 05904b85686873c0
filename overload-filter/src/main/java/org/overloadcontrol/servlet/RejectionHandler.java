package org.overloadcontrol.servlet;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.overloadcontrol.Rejection;

/**
 * Answers a request that overload control refused. The default ({@link DefaultRejectionHandler})
 * sends 503 (429 on Tomcat: {@link Rejection#status()}) with {@code Retry-After} and an HTML page
 * or an {@code application/problem+json} body; an application can supply its own (to redirect, or
 * to serve a cheaper page) by naming its class in the {@code rejectionHandler} key (it needs a
 * public no-argument constructor) or by setting an instance as the servlet-context attribute {@link
 * #ATTRIBUTE} before the filter starts.
 *
 * <p>A handler must answer the request before returning (status, headers, body). If it throws
 * before the response is committed, the filter sends the default answer, so a client never waits on
 * a refused request.
 */
@FunctionalInterface
public interface RejectionHandler {

  /** The servlet-context attribute under which an application may place its handler. */
  String ATTRIBUTE = RejectionHandler.class.getName();

  void reject(HttpServletRequest request, HttpServletResponse response, Rejection rejection)
      throws IOException, ServletException;
}
