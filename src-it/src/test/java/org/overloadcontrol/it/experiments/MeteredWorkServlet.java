package org.overloadcontrol.it.experiments;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.overloadcontrol.servlet.Overload;

/**
 * A page that works a fixed time ({@code serviceTimeMillis}, default 50) and records, per
 * second, the requests that reached the application and their response time at the server:
 * from the filter's arrival time to the end of the work, the queueing in the filter included.
 * The container creates the servlet, hence the static recorder: one run at a time uses it.
 */
public class MeteredWorkServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private static volatile PerSecond arrivals = new PerSecond(System.nanoTime(), 1);
  private static volatile PerSecond responseMillis = arrivals;
  private static volatile ConcurrentLinkedQueue<Double> allResponseMillis =
      new ConcurrentLinkedQueue<>();
  private long serviceMillis;

  /** Starts recording afresh, in buckets from {@code startNanos}. */
  static void reset(long startNanos, int maxSeconds) {
    arrivals = new PerSecond(startNanos, maxSeconds);
    responseMillis = new PerSecond(startNanos, maxSeconds);
    allResponseMillis = new ConcurrentLinkedQueue<>();
  }

  /** Requests that reached the application, per second of their start of work. */
  static PerSecond arrivals() {
    return arrivals;
  }

  /** Response times at the server (ms), per second of their completion. */
  static PerSecond responseMillis() {
    return responseMillis;
  }

  /** Every response time at the server (ms) since the last reset. */
  static List<Double> allResponseMillis() {
    return List.copyOf(allResponseMillis);
  }

  @Override
  public void init() {
    String v = getInitParameter("serviceTimeMillis");
    serviceMillis = v == null ? 50 : Long.parseLong(v);
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp)
      throws IOException, ServletException {
    arrivals.add(System.nanoTime(), 1);
    try {
      Thread.sleep(serviceMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServletException("interrupted", e);
    }
    Overload.context(req)
        .ifPresent(
            c -> {
              double millis = c.elapsed().toNanos() / 1e6;
              responseMillis.add(System.nanoTime(), millis);
              allResponseMillis.add(millis);
            });
    resp.setContentType("text/plain");
    resp.getWriter().write("ok");
  }
}
