package org.overloadcontrol.it.support;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Without the overload filter, what it does to a request that waits: suspend it on its first
 * dispatch and, 50 ms later from another thread, {@link AsyncContext#dispatch()} it; on that
 * dispatch the page answers, {@code ?sendError=1} answers 500 through {@code sendError}, or
 * {@code ?hang=1} goes async again and never completes (the container's 1 s timeout ends it).
 * Shows what the container itself tells an application's listener of such a request.
 */
public class SelfDispatchServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (req.getDispatcherType() == DispatcherType.REQUEST) {
      AsyncContext async = req.startAsync();
      CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(async::dispatch);
      return;
    }
    if (req.getParameter("sendError") != null) {
      resp.sendError(500, "as asked");
    } else if (req.getParameter("hang") != null) {
      req.startAsync().setTimeout(1_000); // never completed: the container's timeout ends it
    } else {
      resp.setContentType("text/plain");
      resp.getWriter().write("ok");
    }
  }
}
