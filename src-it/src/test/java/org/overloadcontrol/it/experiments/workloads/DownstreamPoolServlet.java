package org.overloadcontrol.it.experiments.workloads;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;

/**
 * Workload (c): an endpoint behind a downstream connection pool: at most {@code poolSize}
 * (init-param) calls at once, each {@code callMillis}; the rest block on the pool, holding
 * their container thread, as a request waiting for a JDBC connection does. Capacity: pool
 * size over the call's time, whatever the CPU.
 */
public class DownstreamPoolServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private transient Semaphore pool;
  private long callMillis;

  @Override
  public void init() {
    pool = new Semaphore(Integer.parseInt(getInitParameter("poolSize")), true);
    callMillis = Long.parseLong(getInitParameter("callMillis"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp)
      throws IOException, ServletException {
    try {
      pool.acquire();
      try {
        // A stuck downstream holds the connections it has.
        Stall.awaitEnd();
        Thread.sleep(callMillis);
      } finally {
        pool.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServletException("interrupted", e);
    }
    resp.setContentType("application/json");
    resp.getWriter().write("{\"downstream\":\"ok\"}");
  }
}
