package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * LIFO-Pri over HTTP (Singhmar et al. 2004, Algorithm 1), as the engine's own test checks it:
 * one execution permit, requests classified by header into the shop's classes, held in the
 * handler's queues without a thread, and resumed into the wrapped handler in priority order.
 * The engine runs on a fake clock whose timers the test fires, so the order is exact.
 */
class QueueOrderTest {

  private final QueuedJetty server = new QueuedJetty();
  private final FakeTicker ticker = server.ticker;
  private final FakeScheduler scheduler = server.scheduler;
  private final HoldingHandler app = new HoldingHandler();
  private final Map<String, CompletableFuture<ContentResponse>> responses = new HashMap<>();
  private OverloadEngine engine;

  /** The shop's classes (Table 3 utilities), each chosen by the header X-Class. */
  private void start(Map<String, String> extra) throws Exception {
    Map<String, String> keys = new LinkedHashMap<>();
    String[][] classes = {
      {"home", "1", "browsing", "27"},
      {"search", "3", "browsing", "36"},
      {"details", "4", "browsing", "73"},
      {"login", "5", "transaction", "1"},
      {"payment", "7", "transaction", "1"},
      {"confirm", "8", "transaction", "1"}
    };
    for (String[] c : classes) {
      keys.put("classes." + c[0] + ".rank", c[1]);
      keys.put("classes." + c[0] + ".kind", c[2]);
      keys.put("classes." + c[0] + ".utility", c[3]);
      keys.put("classes." + c[0] + ".match.header", "X-Class=" + c[0]);
    }
    keys.put("queue.permits", "1");
    keys.putAll(extra);
    server.start(OverloadHandler.builder().putAll(keys), app);
    engine = server.engine;
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Sends a request of class {@code cls}; returns once the handler has it running or queued. */
  private void send(String cls, String label) throws InterruptedException {
    int waitingBefore = engine.queues().waitingCount();
    int heldBefore = app.arrivals.size();
    responses.put(label, server.send("/shop", Map.of("X-Class", cls, "X-Label", label)));
    await(label + " queued or running")
        .until(
            () ->
                engine.queues().waitingCount() > waitingBefore || app.arrivals.size() > heldBefore);
  }

  /** Releases {@code label}; returns the label the freed permit went to. */
  private String releaseAndSeeWhoRuns(String label) throws InterruptedException {
    int before = app.arrivals.size();
    app.release(label);
    await("the next request to run").until(() -> app.arrivals.size() > before);
    return app.arrivals.get(before);
  }

  @Test
  void transactionsFirstLaterStepsFirstThenUtilityTimesQueueLength() throws Exception {
    start(Map.of());
    send("home", "running");
    assertThat(app.holds("running")).isTrue();
    for (int i = 0; i < 5; i++) {
      send("home", "home" + i);
    }
    send("details", "details0");
    send("search", "search0");
    send("search", "search1");
    send("login", "login0");
    send("confirm", "confirm0");
    send("payment", "payment0");
    send("login", "login1");
    assertThat(engine.queues().waitingCount()).isEqualTo(12);
    assertThat(app.arrivals).containsExactly("running"); // the others hold no thread, no app

    List<String> resumed = new ArrayList<>();
    String current = "running";
    for (int i = 0; i < 12; i++) {
      current = releaseAndSeeWhoRuns(current);
      resumed.add(current);
    }
    app.release(current);
    // As in the engine's WaitQueuesTest: confirm > payment > login (FIFO); then browsing by
    // utility x length: home 5x27=135, home 108, home 81, details 73, search 72, home 54, ...
    assertThat(resumed)
        .containsExactly(
            "confirm0",
            "payment0",
            "login0",
            "login1",
            "home0",
            "home1",
            "home2",
            "details0",
            "search0",
            "home3",
            "search1",
            "home4");
    for (CompletableFuture<ContentResponse> f : responses.values()) {
      assertThat(f.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
    }
    await("the last permit back").until(() -> engine.queues().permitsInUse() == 0);
  }

  @Test
  void browsingGoesLifoUnderSustainedQueueingAndWaitersExpireAtTheirDeadline() throws Exception {
    start(
        Map.of(
            "queue.overload.enterDelay",
            "200ms",
            "queue.overload.exitDelay",
            "50ms",
            "queue.overload.window",
            "1s",
            "queue.maxWait",
            "5s"));
    send("home", "running");
    send("home", "a");
    send("home", "b");
    send("home", "c");
    assertThat(engine.queues().lifo()).isFalse();
    // Nobody leaves for a whole window while three wait: overloaded, browsing turns LIFO.
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    assertThat(releaseAndSeeWhoRuns("running")).isEqualTo("c"); // newest first

    // a and b reach their 5 s deadline: 503 instead of being served to nobody.
    ticker.advance(Duration.ofSeconds(5));
    scheduler.runDue();
    for (String label : List.of("a", "b")) {
      ContentResponse r = responses.get(label).get(10, TimeUnit.SECONDS);
      assertThat(r.getStatus()).isEqualTo(503);
      assertThat(r.getContentAsString()).contains("\"reason\":\"expired\"");
      assertThat(r.getHeaders().get("Retry-After")).isNotNull();
    }
    app.release("c");
    assertThat(responses.get("c").get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
    assertThat(app.arrivals).containsExactly("running", "c");
    await("permits back").until(() -> engine.queues().permitsInUse() == 0);
    assertThat(engine.queues().waitingCount()).isZero();
  }
}
