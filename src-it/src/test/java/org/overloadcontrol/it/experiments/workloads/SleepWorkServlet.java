package org.overloadcontrol.it.experiments.workloads;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Workload (a): an API method that sleeps a fixed time (init-param {@code sleepMillis}) on the
 * container's thread, the case of a handler waiting on I/O with no pool in front of it. Its
 * capacity is the container's thread count over the sleep.
 */
public class SleepWorkServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private long sleepMillis;

  @Override
  public void init() {
    sleepMillis = Long.parseLong(getInitParameter("sleepMillis"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp)
      throws IOException, ServletException {
    Stall.awaitEnd();
    try {
      Thread.sleep(sleepMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServletException("interrupted", e);
    }
    resp.setContentType("application/json");
    resp.getWriter().write("{\"slept\":" + sleepMillis + "}");
  }
}
