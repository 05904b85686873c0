package org.overloadcontrol.it.experiments.workloads;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Workload (b): a CPU-bound JSON endpoint. Each request computes for about {@code cpuMicros}
 * (init-param) of its own thread's CPU time, then writes the result as JSON: the machine's
 * cores, not a pool or a sleep, set the capacity, so a queue of runnable threads is what
 * overload looks like.
 */
public class CpuJsonServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private long cpuNanos;

  @Override
  public void init() {
    cpuNanos = Long.parseLong(getInitParameter("cpuMicros")) * 1000L;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    Stall.awaitEnd();
    // Thread CPU time, not wall time: on a busy machine the request still does the same work.
    long end = THREADS.getCurrentThreadCpuTime() + cpuNanos;
    long x = req.getRequestURI().hashCode();
    do {
      for (int i = 0; i < 2_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        x ^= x >>> 29;
      }
    } while (THREADS.getCurrentThreadCpuTime() < end);
    resp.setContentType("application/json");
    resp.getWriter().write(String.format(Locale.ROOT, "{\"digest\":\"%016x\"}", x));
  }
}
