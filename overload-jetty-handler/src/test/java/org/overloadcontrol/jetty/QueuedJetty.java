package org.overloadcontrol.jetty;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * A handler on a fake clock whose timers the test fires, served by a real Jetty, and the engine
 * it runs: what the tests that hold requests in the handler's queues share.
 */
final class QueuedJetty implements AutoCloseable {

  final FakeTicker ticker = new FakeTicker();
  final FakeScheduler scheduler = new FakeScheduler(ticker);
  JettyHarness jetty;
  OverloadEngine engine;

  /** Starts the handler {@code handler} describes, around {@code app}, on this clock. */
  void start(OverloadHandlerBuilder handler, Handler app) throws Exception {
    OverloadHandler built = handler.ticker(ticker).scheduler(scheduler).handler(app).build();
    jetty = new JettyHarness(built);
    engine = built.runtime().engine();
  }

  /** Sends a GET of {@code path} with {@code headers}; its response once it comes. */
  CompletableFuture<ContentResponse> send(String path, Map<String, String> headers) {
    return new CompletableResponseListener(
            jetty.request(path).headers(h -> headers.forEach(h::put)))
        .send();
  }

  @Override
  public void close() {
    if (jetty != null) {
      jetty.close();
    }
  }
}
