package org.overloadcontrol.it.support;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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

  /** A request sent to this servlet, held in it: its response to come, and its async context. */
  public record Held(CompletableFuture<HttpResponse<String>> response, AsyncContext async) {}

  /**
   * Sends a GET to {@code uri} (this servlet) and returns once it is held here.
   *
   * @throws AssertionError when it has not reached the servlet within 10 s
   */
  public static Held sendAndHold(HttpClient http, URI uri) throws InterruptedException {
    CompletableFuture<HttpResponse<String>> response =
        http.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    AsyncContext async = HELD.poll(10, TimeUnit.SECONDS);
    if (async == null) {
      throw new AssertionError("the request to " + uri + " did not reach the servlet");
    }
    return new Held(response, async);
  }
}
