package org.overloadcontrol.sample.jetty;

import java.net.InetSocketAddress;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.overloadcontrol.jetty.OverloadHandler;

/**
 * README's Jetty handler quick start as a program: a Jetty 12 server without servlets whose
 * search handler has a 500 ms p90 target, so that under overload its excess is refused with 503
 * instead of queueing. README's code is copied from the region marked below.
 */
public final class SearchServer {

  private SearchServer() {}

  /** Serves on 127.0.0.1:{@code port} (0: any free port) until stopped. */
  public static Server start(int port) throws Exception {
    Server server = new Server(new InetSocketAddress("127.0.0.1", port));
    Handler application = new SearchHandler();
    // snippet-start jetty-handler
    OverloadHandler overload =
        OverloadHandler.builder()
            .put("endpoints.search.target", "500ms")
            .put("endpoints.search.paths", "/search/*")
            .put("queue.permits", "32")
            .build();
    overload.setHandler(application);
    server.setHandler(overload);
    // snippet-end jetty-handler
    server.start();
    return server;
  }

  public static void main(String[] args) throws Exception {
    Server server = start(args.length > 0 ? Integer.parseInt(args[0]) : 8080);
    System.out.println("Search runs at " + server.getURI().resolve("/search/"));
    server.join();
  }

  /** The application: answers every request with a line of text. */
  static final class SearchHandler extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.getHeaders().put("Content-Type", "text/plain; charset=utf-8");
      Content.Sink.write(
          response, true, "results for " + Request.getPathInContext(request) + "\n", callback);
      return true;
    }
  }
}
