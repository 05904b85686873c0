package org.overloadcontrol.it.support;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.overloadcontrol.OverloadContext;

/**
 * {@link MishapServlet} as a Jetty core handler, for the Jetty handler's side of the adapter
 * contract: {@code ?ms=N} works N ms, {@code ?bytes=N} writes N bytes, {@code ?fail=1} throws,
 * {@code ?sendError=1} answers 500 through {@code Response.writeError}, {@code ?hang=1} answers
 * nothing until 1 s later, then 500 (as the servlet's async timeout does);
 * {@code X-Overload-Context} says whether the request was under control; {@code ?id=} values
 * go to {@link MishapServlet#STARTED}, and {@link #COMPLETIONS} counts, per id, how often the
 * callback the handler was given completed (once is right).
 */
public class MishapHandler extends Handler.Abstract {

  /** Completions of the callback this handler was given, per request id. */
  public static final Map<String, AtomicInteger> COMPLETIONS = new ConcurrentHashMap<>();

  @Override
  public boolean handle(Request request, Response response, Callback given) throws Exception {
    MishapServlet.RUNS.incrementAndGet();
    Fields query = Request.extractQueryParameters(request);
    String id = query.getValue("id");
    Callback callback = given;
    if (id != null) {
      MishapServlet.STARTED.add(id);
      AtomicInteger completions = COMPLETIONS.computeIfAbsent(id, k -> new AtomicInteger());
      callback =
          new Callback.Nested(given) {
            @Override
            public void succeeded() {
              completions.incrementAndGet();
              super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
              completions.incrementAndGet();
              super.failed(x);
            }
          };
    }
    response
        .getHeaders()
        .put(
            "X-Overload-Context",
            request.getAttribute(OverloadContext.ATTRIBUTE) != null ? "yes" : "no");
    String ms = query.getValue("ms");
    if (ms != null) {
      Thread.sleep(Long.parseLong(ms));
    }
    if (query.getValue("fail") != null) {
      throw new IllegalStateException("the application failed, as asked");
    }
    if (query.getValue("sendError") != null) {
      Response.writeError(request, response, callback, 500, "as asked");
      return true;
    }
    if (query.getValue("hang") != null) {
      Callback later = callback;
      CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS)
          .execute(() -> Response.writeError(request, response, later, 500, "timed out"));
      return true;
    }
    String b = query.getValue("bytes");
    byte[] body = new byte[b == null ? 2 : Integer.parseInt(b)];
    Arrays.fill(body, (byte) 'o');
    response.getHeaders().put("Content-Type", "text/plain");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
