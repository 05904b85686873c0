package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;

/**
 * A wrapped handler that returns from {@code handle} with its callback not completed holds no
 * thread: under a concurrency limit of one, its permit lapses once it has run twice its target
 * (on the fake clock), the next request runs, and the late completion releases nothing more.
 */
class DetachedHandlerTest {

  private final QueuedJetty server = new QueuedJetty();
  private final HoldingHandler app = new HoldingHandler();

  @AfterEach
  void stop() {
    server.close();
  }

  private CompletableFuture<ContentResponse> send(String label) {
    int before = app.arrivals.size();
    CompletableFuture<ContentResponse> response = server.send("/", Map.of("X-Label", label));
    await(label + " running").until(() -> app.arrivals.size() > before);
    return response;
  }

  private long completed() {
    return server.engine.endpoint("default").classes().stream()
        .mapToLong(c -> c.outcomeCount(Outcome.COMPLETED))
        .sum();
  }

  private void advance(long millis) {
    server.ticker.advance(Duration.ofMillis(millis));
    server.scheduler.runDue();
  }

  @Test
  void aHeldCallbacksPermitLapsesAtTwoTargets() throws Exception {
    server.start(
        OverloadHandler.builder()
            .putAll(Map.of("endpoints.default.target", "300ms", "admission.maxLimit", "1")),
        app);
    ConcurrencyGroup group = server.engine.endpoint("default").concurrencyGroup();
    CompletableFuture<ContentResponse> first = send("first");

    advance(500);
    assertThat(group.inFlight()).as("within two targets").isEqualTo(1);
    advance(200);
    assertThat(group.inFlight()).as("lapsed").isZero();

    CompletableFuture<ContentResponse> second = send("second");
    assertThat(group.inFlight()).isEqualTo(1);
    app.release("first");
    assertThat(first.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
    await("the first's outcome").until(() -> completed() == 1);
    assertThat(group.inFlight()).as("the late completion released nothing").isEqualTo(1);
    app.release("second");
    assertThat(second.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
    await("every permit back").until(() -> group.inFlight() == 0);
  }
}
