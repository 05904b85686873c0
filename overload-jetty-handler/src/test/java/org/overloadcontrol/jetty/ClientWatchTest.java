package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * A held HTTP/1 request whose client closes its connection leaves its queue at once (issue 33),
 * which Jetty's failure listeners alone never told; and a pipelined request behind a held one
 * does not break the connection's framing.
 */
class ClientWatchTest {

  private final HoldingHandler app = new HoldingHandler();
  private JettyHarness jetty;
  private OverloadEngine engine;

  private void start() throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder()
            .putAll(Map.of("queue.permits", "1", "queue.maxWait", "60s"))
            .defaultEndpoint("work")
            .handler(app)
            .build();
    jetty = new JettyHarness(handler);
    engine = handler.runtime().engine();
    new CompletableResponseListener(
            jetty.request("/work").headers(h -> h.put("X-Label", "running")))
        .send();
    await("the permit held").until(() -> app.holds("running"));
  }

  @AfterEach
  void stop() {
    if (jetty != null) {
      jetty.close();
    }
  }

  private Socket send(String requests) throws Exception {
    Socket socket = new Socket("127.0.0.1", jetty.connector.getLocalPort());
    socket.setSoTimeout(10_000);
    socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  private static String get(String label) {
    return "GET /work HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Label: " + label + "\r\n\r\n";
  }

  private EndpointClass work() {
    return engine.endpoint("work").classes().get(0);
  }

  @Test
  void aClientThatClosesOrResetsWhileWaitingLeavesTheQueueAtOnce() throws Exception {
    start();
    Socket closes = send(get("closes"));
    Socket resets = send(get("resets"));
    await("both waiting").until(() -> engine.queues().waitingCount() == 2);
    closes.close();
    resets.setSoLinger(true, 0);
    resets.close();
    long closed = System.nanoTime();
    await("the queue empty").until(() -> engine.queues().waitingCount() == 0);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed))
        .as("ms until the queue was empty (maxWait 60 s)")
        .isLessThan(5_000);
    assertThat(work().abandonedCount()).isEqualTo(2);
    assertThat(work().outcomeCount(Outcome.EXPIRED)).isEqualTo(2);
    app.release("running");
    await("the holder's outcome").until(() -> work().outcomeCount(Outcome.COMPLETED) == 1);
    assertThat(app.arrivals).containsExactly("running");
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void aRequestPipelinedBehindAWaitingOneEndsTheConnectionAfterTheFirstAnswer() throws Exception {
    start();
    Socket socket = send(get("first"));
    await("the first waiting").until(() -> engine.queues().waitingCount() == 1);
    // Sent after the first was read, so the watch reads this one's first byte.
    socket.getOutputStream().write(get("second").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    // Time for the watch to read that byte: nothing outside the watch shows it until the
    // answer's "Connection: close", so there is no condition to wait for.
    Thread.sleep(200);
    app.release("running");
    await("the first running").until(() -> app.holds("first"));
    app.release("first");
    String answers = readToEnd(socket.getInputStream());
    assertThat(answers).startsWith("HTTP/1.1 200").contains("first");
    assertThat(answers.toLowerCase()).contains("connection: close");
    assertThat(answers.split("HTTP/1.1 ", -1)).as("one answer on the connection").hasSize(2);
    await("at rest").until(() -> work().outcomeCount(Outcome.COMPLETED) == 2);
    assertThat(app.arrivals).containsExactly("running", "first");
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void requestsPipelinedInOneWriteAreServedInTurn() throws Exception {
    start();
    Socket socket = send(get("first") + get("second"));
    await("the first waiting").until(() -> engine.queues().waitingCount() == 1);
    // Time for the watch to go wrong on the second request, whose bytes Jetty has read already:
    // nothing shows such a wrong turn before the answers, so there is no condition to wait for.
    Thread.sleep(200);
    app.release("running");
    await("the first running").until(() -> app.holds("first"));
    app.release("first");
    await("the second running").until(() -> app.holds("second"));
    app.release("second");
    socket.shutdownOutput();
    String answers = readToEnd(socket.getInputStream());
    assertThat(answers.split("HTTP/1.1 200", -1)).as("two answers").hasSize(3);
    assertThat(app.arrivals).containsExactly("running", "first", "second");
  }

  private static String readToEnd(InputStream in) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    for (int n; (n = in.read(buffer)) >= 0; ) {
      out.write(buffer, 0, n);
    }
    return out.toString(StandardCharsets.US_ASCII);
  }
}
