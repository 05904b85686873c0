package org.overloadcontrol.it.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * Issue 33 on Jetty 12.1, ee11: the filter sees a waiting request's client close or reset its
 * HTTP/1.1 connection (docs/guide/wait-queues.md), as on Jetty 12.0. 20 raw connections wait behind
 * a request holding the only permit for 8 s with a 60 s {@code maxWait}; half close, half
 * reset. The queue must be empty and all 20 counted abandoned within 2 s, and none may run.
 */
class Jetty121ClientsThatCloseIT {

  @TempDir Path apps;

  @Test
  void waitingClientsThatCloseLeaveTheQueueAtOnce() throws Exception {
    assertThat(Server.getVersion()).as("the Jetty on the class path").startsWith("12.1.");
    MishapServlet.STARTED.clear();
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(
                Map.of(
                    "queue.permits", "1", "queue.maxWait", "60s", "queue.browsingCapacity", "50"))
            .withServlet("work", MishapServlet.class, Map.of(), "/work")
            .writeUnder(apps, "jetty121-close");
    HttpClient client = new HttpClient();
    client.start();
    try (WebContainer container = Ee11JettyContainer.start(Deployment.of(dir))) {
      OverloadEngine engine = FilterEngine.of(container.servletContext());
      URI base = container.baseUri();
      CompletableFuture<ContentResponse> holder = new CompletableFuture<>();
      new Thread(
              () -> {
                try {
                  holder.complete(client.newRequest(base.resolve("work?ms=8000&id=holder")).send());
                } catch (Exception e) {
                  holder.completeExceptionally(e);
                }
              })
          .start();
      await("the holder running").until(() -> MishapServlet.STARTED.contains("holder"));
      List<Socket> sockets = WaitingClients.open(20, i -> base.resolve("work?id=c" + i));
      await("20 waiting").until(() -> engine.queues().waitingCount() == 20);
      long closed = System.nanoTime();
      WaitingClients.close(sockets, i -> i % 2 == 1); // half FIN, half RST
      EndpointClass work = engine.endpoint("work").classes().get(0);
      await("the queue empty and all 20 abandoned")
          .atMost(Duration.ofSeconds(2))
          .pollInterval(Duration.ofMillis(5))
          .untilAsserted(
              () -> {
                assertThat(engine.queues().waitingCount()).isZero();
                assertThat(work.abandonedCount()).isEqualTo(20);
              });
      System.out.printf(
          "[JETTY 12.1] %d ms after 20 closes: %d still waiting, %d abandoned%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed),
          engine.queues().waitingCount(),
          work.abandonedCount());
      assertThat(holder.get(30, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
      assertThat(MishapServlet.STARTED).containsExactly("holder");
    } finally {
      client.stop();
    }
  }
}
