package org.overloadcontrol.it.support;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A page that goes asynchronous and answers only when the test says so: each request's
 * {@link AsyncContext} waits in {@link #HELD} until the test completes it with
 * {@link #answer}. The class comes from the test class path, so the test and the deployed
 * servlet share the queue.
 */
public class HeldAsyncServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  /** The requests waiting for the test. */
  public static final BlockingQueue<AsyncContext> HELD = new LinkedBlockingQueue<>();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
    AsyncContext async = req.startAsync();
    async.setTimeout(0);
    HELD.add(async);
  }

  /** Answers a held request with 200 "done" and completes it. */
  public static void answer(AsyncContext async) throws java.io.IOException {
    HttpServletResponse r = (HttpServletResponse) async.getResponse();
    r.setContentType("text/plain");
    r.getWriter().write("done");
    async.complete();
  }
}
