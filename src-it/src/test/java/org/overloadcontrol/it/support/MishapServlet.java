package org.overloadcontrol.it.support;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.overloadcontrol.servlet.Overload;

/**
 * A page that misbehaves as asked, for the tests of how each request ends: {@code ?ms=N} works
 * N ms on the container's thread, {@code ?bytes=N} writes N bytes, {@code ?fail=1} throws,
 * {@code ?sendError=1} answers 500 through {@code sendError}, {@code ?hang=1} goes async and
 * never completes (the container's async timeout ends it). Every answer says in the header
 * {@code X-Overload-Context} whether the filter controlled the request; {@code ?id=} values of
 * the requests the application began are kept in {@link #STARTED}.
 */
public class MishapServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  /** The ids of requests the application began (shared by the class loader of the tests). */
  public static final Set<String> STARTED = ConcurrentHashMap.newKeySet();

  /** How many requests the application began. */
  public static final AtomicInteger RUNS = new AtomicInteger();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp)
      throws IOException, ServletException {
    RUNS.incrementAndGet();
    String id = req.getParameter("id");
    if (id != null) {
      STARTED.add(id);
    }
    resp.setHeader("X-Overload-Context", Overload.context(req).isPresent() ? "yes" : "no");
    long ms = req.getParameter("ms") == null ? 0 : Long.parseLong(req.getParameter("ms"));
    if (ms > 0) {
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServletException("interrupted", e);
      }
    }
    if (req.getParameter("fail") != null) {
      throw new ServletException("the application failed, as asked");
    }
    if (req.getParameter("sendError") != null) {
      resp.sendError(500, "as asked");
      return;
    }
    if (req.getParameter("hang") != null) {
      req.startAsync().setTimeout(1_000);
      return;
    }
    int bytes = req.getParameter("bytes") == null ? 2 : Integer.parseInt(req.getParameter("bytes"));
    resp.setContentType("text/plain");
    byte[] body = new byte[bytes];
    java.util.Arrays.fill(body, (byte) 'o');
    if (bytes >= 2) {
      body[0] = 'o';
      body[1] = 'k';
    }
    resp.setContentLength(bytes);
    resp.getOutputStream().write(body);
  }
}
