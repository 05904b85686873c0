package org.overloadcontrol.it.experiments;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A method that sleeps {@code serviceTimeMillis} behind a downstream pool of {@code permits}
 * (a database's connections), waiting for a connection in FIFO order with no bound: what a
 * virtual-thread server runs into once no thread pool holds requests back. The pool is
 * published as the servlet-context attribute {@value #POOL_ATTRIBUTE}, so that an experiment
 * can count its waiters ({@link Semaphore#getQueueLength()}).
 */
public class DownstreamPoolServlet extends HttpServlet {

  /** The context attribute holding the pool's {@link Semaphore}. */
  public static final String POOL_ATTRIBUTE = "experiments.downstreamPool";

  private static final long serialVersionUID = 1L;
  private transient Semaphore pool;
  private long serviceMillis;

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    pool = new Semaphore(Integer.parseInt(config.getInitParameter("permits")), true);
    serviceMillis = Long.parseLong(config.getInitParameter("serviceTimeMillis"));
    config.getServletContext().setAttribute(POOL_ATTRIBUTE, pool);
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    try {
      pool.acquire();
      try {
        TimeUnit.MILLISECONDS.sleep(serviceMillis);
      } finally {
        pool.release();
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
