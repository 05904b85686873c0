package org.overloadcontrol.it.support;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A service whose response time grows with concurrency: {@code permits} requests are served at
 * a time, each for {@code serviceTime} milliseconds, and the rest wait in FIFO order for a
 * permit. Its capacity is {@code permits / serviceTime} requests per second, whatever the CPU,
 * so the tests do not depend on the machine's speed. The wait is a blocking one on purpose: it
 * holds a container thread, as a servlet waiting for a database connection does.
 */
public class QueueingServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private transient Semaphore permits;
  private long serviceMillis;

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    permits = new Semaphore(Integer.parseInt(config.getInitParameter("permits")), true);
    serviceMillis = Long.parseLong(config.getInitParameter("serviceTimeMillis"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    try {
      permits.acquire();
      try {
        TimeUnit.MILLISECONDS.sleep(serviceMillis);
      } finally {
        permits.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "interrupted");
      return;
    }
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().write("served\n");
  }
}
