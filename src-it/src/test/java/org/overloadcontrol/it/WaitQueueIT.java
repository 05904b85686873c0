package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.LoadPlan;
import org.overloadcontrol.it.support.LoadSummary;
import org.overloadcontrol.it.support.OpenLoopDriver;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The proof of issue 3 in real containers: LIFO-Pri wait queues on the container's own pool
 * (Singhmar et al. 2004). Execution permits make the capacity; admitted requests that find none
 * wait suspended, holding no container thread; transaction requests go first; every request
 * ends in exactly one outcome whatever happens (disconnects, failures, expiries, a shutdown).
 */
class WaitQueueIT {

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(1024);
    client.setMaxRequestsQueuedPerDestination(10_000);
    client.setFollowRedirects(false);
    client.start();
  }

  @AfterAll
  static void stopClient() throws Exception {
    client.stop();
  }

  private static ExplodedWebApp shop(Map<String, String> queue, long serviceMillis) {
    Map<String, String> params =
        new HashMap<>(
            Map.of(
                "classes.txn.rank",
                "5",
                "classes.txn.kind",
                "transaction",
                "classes.txn.utility",
                "5000",
                "classes.browse.rank",
                "1",
                "classes.browse.utility",
                "27",
                "endpoints.txn.class",
                "txn",
                "endpoints.browse.class",
                "browse"));
    params.putAll(queue);
    Map<String, String> servlet = Map.of("serviceTimeMillis", Long.toString(serviceMillis));
    return new ExplodedWebApp()
        .withOverloadFilter(params)
        .withServlet("txn", SleepServlet.class, servlet, "/txn")
        .withServlet("browse", SleepServlet.class, servlet, "/browse");
  }

  private static OverloadEngine engine(WebContainer container) {
    return FilterEngine.of(container.servletContext());
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void underOverloadTransactionsCompleteWhileBrowsingWaitsOrExpires(ContainerKind kind)
      throws Exception {
    // Two permits of 50 ms: capacity 40/s. Offered: browsing 70/s and transactions 8/s.
    Path dir =
        shop(Map.of("queue.permits", "2", "queue.maxWait", "2s"), 50)
            .writeUnder(apps, kind + "-priority");
    try (WebContainer container = kind.start(Deployment.of(dir));
        OpenLoopDriver browseDriver = new OpenLoopDriver();
        OpenLoopDriver txnDriver = new OpenLoopDriver()) {
      Duration length = Duration.ofSeconds(10);
      Map<String, String> json = Map.of("Accept", "application/json");
      CompletableFuture<LoadSummary> browse =
          CompletableFuture.supplyAsync(
              () ->
                  run(
                      browseDriver,
                      LoadPlan.of(container.baseUri().resolve("browse"), 70, length)
                          .withWarmup(Duration.ofSeconds(2))
                          .withHeaders(json)
                          .withSeed(1)));
      CompletableFuture<LoadSummary> txn =
          CompletableFuture.supplyAsync(
              () ->
                  run(
                      txnDriver,
                      LoadPlan.of(container.baseUri().resolve("txn"), 8, length)
                          .withWarmup(Duration.ofSeconds(2))
                          .withHeaders(json)
                          .withSeed(2)));
      LoadSummary b = browse.get(60, TimeUnit.SECONDS);
      LoadSummary t = txn.get(60, TimeUnit.SECONDS);
      System.out.printf(
          Locale.ROOT,
          "[%s] browsing 70/s:%n%s[%s] transactions 8/s:%n%s",
          kind,
          b.format(),
          kind,
          t.format());
      OverloadEngine engine = engine(container);
      EndpointClass browseStage = route(engine, "browse");
      EndpointClass txnStage = route(engine, "txn");
      System.out.printf(
          Locale.ROOT,
          "[%s] browse: enqueued %d, expired %d, rejected %d;"
              + " txn: enqueued %d, expired %d, mean wait %.0f ms%n",
          kind,
          browseStage.enqueuedCount(),
          browseStage.outcomeCount(Outcome.EXPIRED),
          browseStage.outcomeCount(Outcome.REJECTED),
          txnStage.enqueuedCount(),
          txnStage.outcomeCount(Outcome.EXPIRED),
          txnStage.totalWaitNanos() / 1e6 / Math.max(1, txnStage.enqueuedCount()));

      double txnOk = (double) t.okCount() / t.sentCount();
      double browseOk = (double) b.okCount() / b.sentCount();
      assertThat(txnOk).as("transactions completed").isGreaterThan(0.95);
      assertThat(browseOk).as("browsing completed").isLessThan(0.75);
      assertThat(b.rejectedCount()).as("browsing refused").isPositive();
      assertThat(b.rejectedWithoutRetryAfterCount()).isZero();
      assertThat(txnStage.enqueuedCount()).as("transactions did wait").isPositive();
      assertThat(t.okP90()).as("transactions' p90 beats browsing's").isLessThan(b.okP90());
      assertThat(b.failedCount() + b.otherCount() + t.failedCount() + t.otherCount()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  @SuppressWarnings("try") // the container is stopped mid-test, to see the waiters answered
  void aWaitingRequestHoldsNoContainerThread(ContainerKind kind) throws Exception {
    // One permit of 3 s; 40 requests arrive at once into a container of 16 threads.
    Path dir =
        shop(
                Map.of(
                    "queue.permits", "1", "queue.maxWait", "20s", "queue.browsingCapacity", "100"),
                3_000)
            .writeUnder(apps, kind + "-threads");
    try (WebContainer container = kind.start(Deployment.of(dir).withMaxThreads(16))) {
      List<CompletableFuture<Integer>> responses = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        responses.add(send(client.newRequest(container.baseUri().resolve("browse"))));
      }
      OverloadEngine engine = engine(container);
      await("requests waiting in the queue")
          .atMost(Duration.ofSeconds(10))
          .until(() -> engine.queues().waitingCount() >= 39);
      int waiting = engine.queues().waitingCount();
      int busy = container.busyThreads();
      System.out.printf("[%s] waiting %d, busy container threads %d of 16%n", kind, waiting, busy);
      // 39 wait in a container of 16 threads: had each held its thread, at most 15 could.
      assertThat(waiting).as("requests waiting in the queue").isEqualTo(39);
      // One runs; the rest wait without a thread (Jetty counts its selector and acceptor too).
      assertThat(busy).as("busy container threads").isLessThanOrEqualTo(4);
      container.close();
      Map<Integer, Integer> statuses = new HashMap<>();
      int unanswered = 0;
      for (CompletableFuture<Integer> r : responses) {
        try {
          statuses.merge(r.get(30, TimeUnit.SECONDS), 1, Integer::sum);
        } catch (java.util.concurrent.TimeoutException e) {
          unanswered++;
        }
      }
      System.out.printf("[%s] after the stop: %s, unanswered %d%n", kind, statuses, unanswered);
      assertThat(unanswered).as("requests left hanging").isZero();
      assertThat(engine.queues().waitingCount()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void everyRequestGetsExactlyOneOutcomeThroughDisconnectsFailuresExpiriesAndAShutdown(
      ContainerKind kind) throws Exception {
    Path dir =
        shop(
                Map.of(
                    "queue.permits",
                    "3",
                    "queue.maxWait",
                    "400ms",
                    "queue.classes.txn.maxWait",
                    "2s"),
                20)
            .writeUnder(apps, kind + "-chaos");
    Random random = new Random(42);
    Map<String, AtomicInteger> clientSide = new ConcurrentHashMap<>();
    List<CompletableFuture<Integer>> all = new ArrayList<>();
    OverloadEngine engine;
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      engine = engine(container);
      long start = System.nanoTime();
      int sent = 0;
      // About 2,500 requests at 500/s (capacity 150/s), and the container stops at 3.5 s.
      while (sent < 2_500) {
        long due = start + sent * 2_000_000L;
        long sleep = due - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
        if (System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(3_500)) {
          break;
        }
        String path = random.nextInt(10) < 2 ? "txn" : "browse";
        URI uri = container.baseUri().resolve(path + (random.nextInt(20) == 0 ? "?fail=1" : ""));
        Request request = client.newRequest(uri).timeout(20, TimeUnit.SECONDS);
        CompletableFuture<Integer> response = send(request);
        if (random.nextInt(10) == 0) {
          long abortAfter = random.nextInt(200);
          CompletableFuture.delayedExecutor(abortAfter, TimeUnit.MILLISECONDS)
              .execute(() -> request.abort(new Exception("client left")));
        }
        all.add(response);
        sent++;
      }
      System.out.printf("[%s] %d requests sent, stopping the container%n", kind, sent);
    }
    for (CompletableFuture<Integer> r : all) {
      int status = r.get(30, TimeUnit.SECONDS);
      clientSide
          .computeIfAbsent(Integer.toString(status), k -> new AtomicInteger())
          .incrementAndGet();
    }
    long arrivals = 0;
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    for (ControlledEndpoint e : engine.endpoints()) {
      for (EndpointClass c : e.classes()) {
        arrivals += c.arrivalCount();
        for (Outcome o : Outcome.values()) {
          outcomes.merge(o, c.outcomeCount(o), Long::sum);
        }
      }
    }
    long settled = outcomes.values().stream().mapToLong(Long::longValue).sum();
    System.out.printf(
        "[%s] client saw %s; engine: %d arrivals, outcomes %s%n",
        kind, clientSide, arrivals, outcomes);
    assertThat(settled)
        .as("outcomes settled = requests that reached the filter")
        .isEqualTo(arrivals);
    assertThat(arrivals)
        .as("requests that reached the filter")
        .isGreaterThan(1_000)
        .isLessThanOrEqualTo(all.size());
    assertThat(outcomes.get(Outcome.COMPLETED)).isPositive();
    assertThat(outcomes.get(Outcome.FAILED)).isPositive();
    assertThat(outcomes.get(Outcome.EXPIRED)).isPositive();
    assertThat(engine.queues().waitingCount()).as("left waiting").isZero();
    assertThat(engine.queues().permitsInUse()).as("permits not returned").isZero();
    // What the client saw never exceeds what the server settled.
    int client200 = clientSide.getOrDefault("200", new AtomicInteger()).get();
    assertThat((long) client200).isLessThanOrEqualTo(outcomes.get(Outcome.COMPLETED));
  }

  private static EndpointClass route(OverloadEngine engine, String name) {
    return engine.endpoint(name).classes().get(0);
  }

  private static LoadSummary run(OpenLoopDriver driver, LoadPlan plan) {
    try {
      return driver.run(plan);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Sends; completes with the status, −1 when there was no response (aborted, closed), or −200
   * for a 200 without the application's body (a container that ended a suspended request itself
   * while stopping).
   */
  private static CompletableFuture<Integer> send(Request request) {
    CompletableFuture<Integer> f = new CompletableFuture<>();
    request.send(
        new org.eclipse.jetty.client.BufferingResponseListener() {
          @Override
          public void onComplete(org.eclipse.jetty.client.Result result) {
            if (result.getResponse() == null || result.isFailed()) {
              f.complete(-1);
              return;
            }
            int status = result.getResponse().getStatus();
            f.complete(status == 200 && !"ok".equals(getContentAsString()) ? -200 : status);
          }
        });
    return f;
  }
}
