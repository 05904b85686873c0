package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * Issue 33, item 3, on the handler: in Jetty's graceful stop (a {@link GracefulHandler} and the
 * server's stop timeout) the waiting requests are answered 503 when the stop begins, while the
 * running one may finish; none of them reaches the wrapped handler. Before, the handler
 * answered them only in its {@code doStop}, after the server's wait for the requests in
 * progress, and handed the running request's permit to the first of them meanwhile.
 */
class GracefulStopTest {

  @Test
  void aGracefulStopAnswersTheWaitingAtOnceAndLetsTheRunningOneFinish() throws Exception {
    HoldingHandler app = new HoldingHandler();
    OverloadHandler handler =
        OverloadHandler.builder()
            .put("queue.permits", "1")
            .put("queue.maxWait", "30s")
            .handler(app)
            .build();
    try (JettyHarness jetty = new JettyHarness(new GracefulHandler(handler))) {
      jetty.server.setStopTimeout(5_000);
      // Jetty's connector cuts idle connections 1 s into a graceful stop, held requests
      // included, which would answer them too; longer here, so that only the handler can.
      jetty.connector.setShutdownIdleTimeout(30_000);
      OverloadEngine engine = handler.runtime().engine();
      CompletableFuture<ContentResponse> running = send(jetty, "running");
      await("the first request running").until(() -> app.holds("running"));
      List<CompletableFuture<ContentResponse>> waiting = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        waiting.add(send(jetty, "waiting-" + i));
      }
      await("5 waiting").until(() -> engine.queues().waitingCount() == 5);

      CompletableFuture<Void> stop =
          CompletableFuture.runAsync(
              () -> {
                try {
                  jetty.server.stop();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      await("the graceful stop begun").until(handler::isShutdown);
      for (CompletableFuture<ContentResponse> w : waiting) {
        assertThat(w.get(5, TimeUnit.SECONDS).getStatus()).isEqualTo(503);
      }
      assertThat(stop).as("the server still waits for the running request").isNotDone();
      app.release("running");
      assertThat(running.get(5, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
      // The connector then waits for the client's idle connections until the stop timeout: the
      // stop ends either way (a timeout is what Jetty reports for those).
      stop.handle((done, timedOut) -> null).get(10, TimeUnit.SECONDS);
      assertThat(app.arrivals)
          .as("requests that reached the wrapped handler")
          .containsExactly("running");
      assertThat(engine.queues().waitingCount()).isZero();
      assertThat(engine.queues().permitsInUse()).isZero();
    }
  }

  private static CompletableFuture<ContentResponse> send(JettyHarness jetty, String label) {
    return new CompletableResponseListener(
            jetty.request("/work").headers(h -> h.put("X-Label", label)))
        .send();
  }
}
