package org.overloadcontrol.it.support;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A page that works for a fixed time (init-param {@code serviceTimeMillis}) on the container's
 * thread, and throws when asked ({@code ?fail=1}): the application of the wait-queue tests,
 * whose capacity is set by the filter's execution permits.
 */
public class SleepServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private long serviceMillis;

  @Override
  public void init() {
    String v = getInitParameter("serviceTimeMillis");
    serviceMillis = v == null ? 50 : Long.parseLong(v);
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp)
      throws IOException, ServletException {
    try {
      Thread.sleep(serviceMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServletException("interrupted", e);
    }
    if ("1".equals(req.getParameter("fail"))) {
      throw new ServletException("the application failed, as asked");
    }
    resp.setContentType("text/plain");
    resp.getWriter().write("ok");
  }
}
