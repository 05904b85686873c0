package org.overloadcontrol.it.support;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.servlet.Overload;

/**
 * The "quality knob" of Welsh &amp; Culler 2003 §4.5 in a servlet: each request costs
 * {@code baseMillis + quality × workMillis} on one of {@code permits} (the rest wait, FIFO,
 * holding a container thread as {@link QueueingServlet} does), where quality is the request's
 * own from {@code Overload.quality(request)}. Its capacity rises from
 * {@code permits / (base + work)} at full quality to {@code permits / (base + q_min × work)}.
 *
 * <p>It counts what it served and at what quality in statics the test reads (the exploded
 * application's classes come from the test class path, so the test sees the same class).
 */
@Degradable(minQuality = 0.2)
@ResponseTimeTarget("300ms")
public class DegradableWorkServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private static final LongAdder SERVED = new LongAdder();
  private static final DoubleAdder QUALITY_SUM = new DoubleAdder();
  private transient Semaphore permits;
  private long baseMicros;
  private long workMicros;

  /** Forgets what earlier runs served. */
  public static void clear() {
    SERVED.reset();
    QUALITY_SUM.reset();
  }

  /** Requests served since the last {@link #clear}. */
  public static long servedCount() {
    return SERVED.sum();
  }

  /** Mean quality of the requests served since the last {@link #clear}. */
  public static double meanQuality() {
    long n = SERVED.sum();
    return n == 0 ? Double.NaN : QUALITY_SUM.sum() / n;
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    permits = new Semaphore(Integer.parseInt(config.getInitParameter("permits")), true);
    baseMicros = 1000L * Long.parseLong(config.getInitParameter("baseMillis"));
    workMicros = 1000L * Long.parseLong(config.getInitParameter("workMillis"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    double quality = Overload.quality(req);
    try {
      permits.acquire();
      try {
        TimeUnit.MICROSECONDS.sleep(baseMicros + Math.round(quality * workMicros));
      } finally {
        permits.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "interrupted");
      return;
    }
    SERVED.increment();
    QUALITY_SUM.add(quality);
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().write("served at quality " + quality + "\n");
  }
}
