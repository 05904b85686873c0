package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.it.MishandledRequestsIT.Answer;
import org.overloadcontrol.it.MishandledRequestsIT.Totals;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Everything that can go wrong with a request, at once, in each container (issue 17): 10,000
 * requests at about 1,250/s against 4 permits, with wait queues under short deadlines,
 * admission control, and bandwidth shares that delay one group; the application throws, answers
 * through {@code sendError}, or goes async and never completes; clients reset mid-wait and
 * mid-response; and the container stops while requests wait. At rest: every request that
 * reached the filter has exactly one outcome, nothing waits, every permit is free, and the
 * application's own count agrees with the engine's. Bounded: about 10 s per container.
 */
class ChaosIT {

  private static final int REQUESTS = 10_000;
  private static final long GAP_NANOS = 800_000L; // 1,250 a second

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(2_000);
    client.setMaxRequestsQueuedPerDestination(20_000);
    client.setFollowRedirects(false);
    client.start();
  }

  @AfterAll
  static void stopClient() throws Exception {
    client.stop();
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void atRestEveryRequestHasOneOutcomeAndNothingIsHeld(ContainerKind kind) throws Exception {
    MishapServlet.STARTED.clear();
    MishapServlet.RUNS.set(0);
    Map<String, String> params = new LinkedHashMap<>();
    params.put("queue.permits", "4");
    params.put("queue.maxWait", "300ms");
    params.put("queue.browsingCapacity", "60");
    params.put("endpoints.work.target", "300ms");
    params.put("admission.controller", "rate"); // instant refusals by the bucket
    params.put("controller.initialRate", "900");
    params.put("controller.bucketDepth", "20");
    params.put("bandwidth.total", "1MB/s");
    params.put("bandwidth.groups.heavy.share", "20%");
    params.put("bandwidth.groups.heavy.match.header", "X-Group=heavy");
    params.put("bandwidth.groups.light.share", "80%");
    params.put("bandwidth.groups.light.match.header", "X-Group=light");
    params.put("bandwidth.standbyLimit", "50");
    params.put("bandwidth.maxDelay", "2s");
    params.put("bandwidth.managerPeriod", "100ms");
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(params)
            .withServlet("work", MishapServlet.class, Map.of(), "/work")
            .writeUnder(apps, kind + "-chaos");
    Random random = new Random(17);
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    OverloadEngine engine;
    int resets = 0;
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      engine = MishandledRequestsIT.engine(container);
      long start = System.nanoTime();
      for (int i = 0; i < REQUESTS; i++) {
        long sleep = start + i * GAP_NANOS - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
        URI uri = container.baseUri().resolve("work?" + query(random));
        String group = random.nextInt(3) == 0 ? "heavy" : "light";
        Request request =
            client
                .newRequest(uri)
                .headers(h -> h.put("X-Group", group))
                .headers(h -> h.put("Accept", "application/json"))
                .timeout(20, TimeUnit.SECONDS);
        answers.add(MishandledRequestsIT.send(request));
        if (random.nextInt(10) == 0) {
          // A client that gives up: while it waits, is delayed, or is being answered.
          resets++;
          CompletableFuture.delayedExecutor(random.nextInt(300), TimeUnit.MILLISECONDS)
              .execute(() -> request.abort(new Exception("client left")));
        }
      }
      System.out.printf(
          "[%s] %d requests sent (%d reset by the client), %d waiting; stopping%n",
          kind, REQUESTS, resets, engine.queues().waitingCount());
      if (Boolean.getBoolean("chaos.drain")) {
        Thread.sleep(3_000);
        System.out.printf(
            "[%s] DRAINED %s, waiting %d, permits %d%n",
            kind,
            Totals.of(engine),
            engine.queues().waitingCount(),
            engine.queues().permitsInUse());
      }
    }
    Map<Integer, Integer> seen = new TreeMap<>();
    for (CompletableFuture<Answer> a : answers) {
      seen.merge(a.get(30, TimeUnit.SECONDS).status(), 1, Integer::sum);
    }
    Totals totals = Totals.of(engine);
    // Requests the container refused or dropped before the filter saw them never arrived.
    long arrivals = totals.arrivals();
    Totals settled = totals.assertAtRest(engine, (int) arrivals);
    long ran = settled.outcomes().get(Outcome.COMPLETED) + settled.outcomes().get(Outcome.FAILED);
    System.out.printf(
        "[%s] clients saw %s; engine %s; application ran %d requests%n",
        kind, seen, settled, MishapServlet.RUNS.get());
    assertThat(arrivals).as("requests that reached the filter").isGreaterThan(REQUESTS / 2);
    assertThat(settled.outcomes().get(Outcome.COMPLETED)).isPositive();
    assertThat(settled.outcomes().get(Outcome.FAILED)).isPositive();
    assertThat(settled.outcomes().get(Outcome.EXPIRED)).isPositive();
    assertThat(settled.outcomes().get(Outcome.REJECTED)).isPositive();
    // Every run of the application is one outcome that says it ran; a request may also be
    // settled as run (FAILED) when the container ended it after its dispatch, unrun.
    assertThat(ran)
        .as("completed + failed vs the application's runs")
        .isGreaterThanOrEqualTo(MishapServlet.RUNS.get());
    assertThat((long) seen.getOrDefault(200, 0))
        .as("200s the clients saw")
        .isLessThanOrEqualTo(settled.outcomes().get(Outcome.COMPLETED));
  }

  /** 80 % plain work (0–8 ms, 0.5–8 KB), 6 % throw, 6 % sendError, 3 % never complete. */
  private static String query(Random random) {
    int r = random.nextInt(100);
    String work = "ms=" + random.nextInt(8) + "&bytes=" + (500 + random.nextInt(7_500));
    if (r < 6) {
      return work + "&fail=1";
    }
    if (r < 12) {
      return work + "&sendError=1";
    }
    if (r < 15) {
      return "hang=1";
    }
    return work;
  }
}
