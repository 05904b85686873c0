package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;
import static org.overloadcontrol.internal.engine.RecordingCpuClock.measuredBetween;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RecordingCpuClock;
import org.overloadcontrol.internal.engine.RecordingCpuClock.Reading;

/**
 * The handler marks each admitted request running on the thread that runs the wrapped handler,
 * so that a completion there gives the concurrency limit the execution's CPU time: a request
 * run at once on Jetty's thread, and a held one run later on the server's executor. The engine
 * reads the threads' real CPU time through a clock that keeps its readings; each execution's
 * start and stop, on the thread that ran it, span at least what the application burned. The
 * request holding the permit is completed from the test's thread, which never started an
 * execution, so that its completion reads nothing and the burning request is the only one
 * measured.
 */
class ExecutionCpuHandlerTest {

  private static final long BURN_NANOS = 5_000_000L;

  private final QueuedJetty server = new QueuedJetty();
  private final RecordingCpuClock cpu = RecordingCpuClock.ofThreads();
  private final Application app = new Application();
  private OverloadEngine engine;

  /**
   * Holds a request labelled {@code hold} until the test completes it; burns CPU for any other,
   * lets a second of the engine's time go by and completes it on its own thread.
   */
  private final class Application extends Handler.Abstract {
    final Map<String, Callback> held = new ConcurrentHashMap<>();
    final Map<String, Long> burned = new ConcurrentHashMap<>();

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String label = request.getHeaders().get("X-Label");
      if ("hold".equals(label)) {
        held.put(label, callback);
        return true;
      }
      burned.put(label, CpuBurn.burn(BURN_NANOS));
      server.ticker.advance(Duration.ofSeconds(1));
      response.setStatus(200);
      callback.succeeded();
      return true;
    }
  }

  @BeforeEach
  void start() throws Exception {
    assumeThat(RecordingCpuClock.measured()).as("thread CPU time measured").isTrue();
    server.start(
        OverloadHandler.builder()
            .putAll(Map.of("queue.permits", "1", "queue.maxWait", "60s"))
            .target("work", Duration.ofSeconds(2))
            .defaultEndpoint("work")
            .runtimeOptions(b -> b.cpuClock(cpu)),
        app);
    engine = server.engine;
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private long outcomes(Outcome outcome) {
    return engine.endpoint("work").classes().stream().mapToLong(c -> c.outcomeCount(outcome)).sum();
  }

  private CompletableFuture<ContentResponse> send(String label) {
    return server.send("/work", Map.of("X-Label", label));
  }

  /** Asserts that the readings after {@code mark} are one execution's, on a Jetty thread. */
  private long measuredAfter(int mark) {
    await("the execution's stop").until(() -> cpu.since(mark).size() >= 2);
    assertThat(cpu.since(mark)).noneMatch(Reading::onThisThread);
    return measuredBetween(cpu.since(mark));
  }

  @Test
  void aRequestRunAtOnceRecordsWhatTheHandlerBurned() throws Exception {
    ContentResponse response = send("now").get();
    assertThat(response.getStatus()).isEqualTo(200);
    await("its outcome").until(() -> outcomes(Outcome.COMPLETED) == 1);

    assertThat(measuredAfter(0)).isGreaterThanOrEqualTo(app.burned.get("now"));
    assertThat(app.burned.get("now")).isGreaterThanOrEqualTo(BURN_NANOS);
  }

  @Test
  void aHeldRequestRunOnTheExecutorRecordsWhatTheHandlerBurned() throws Exception {
    send("hold");
    await("the permit held").until(() -> app.held.containsKey("hold"));
    CompletableFuture<ContentResponse> later = send("later");
    await("waiting").until(() -> engine.queues().waitingCount() == 1);
    assertThat(cpu.count()).as("the held one's start").isEqualTo(1);

    app.held.remove("hold").succeeded(); // on this thread: hands the permit on
    assertThat(later.get().getStatus()).isEqualTo(200);
    await("both outcomes").until(() -> outcomes(Outcome.COMPLETED) == 2);

    assertThat(engine.endpoint("work").classes().get(0).enqueuedCount()).isEqualTo(1);
    assertThat(measuredAfter(1)).isGreaterThanOrEqualTo(app.burned.get("later"));
    assertThat(app.burned.get("later")).isGreaterThanOrEqualTo(BURN_NANOS);
  }

  @Test
  void aHeldRequestWhoseClientLeftNeverRunsAndReadsNothing() throws Exception {
    send("hold");
    await("the permit held").until(() -> app.held.containsKey("hold"));
    try (Socket gone = new Socket("127.0.0.1", server.jetty.connector.getLocalPort())) {
      gone.getOutputStream()
          .write(
              "GET /work HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Label: gone\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      gone.getOutputStream().flush();
      await("waiting").until(() -> engine.queues().waitingCount() == 1);
    }
    await("the queue empty").until(() -> engine.queues().waitingCount() == 0);

    app.held.remove("hold").succeeded();
    await("the held one's outcome").until(() -> outcomes(Outcome.COMPLETED) == 1);
    assertThat(app.burned).doesNotContainKey("gone");
    assertThat(cpu.count()).as("the held one's start only").isEqualTo(1);
    assertThat(engine.queues().permitsInUse()).isZero();
  }
}
