package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.MishandledRequestsIT.Answer;
import org.overloadcontrol.it.MishandledRequestsIT.Totals;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.ListeningFilter;
import org.overloadcontrol.it.support.MishapHandler;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.jetty.HandlerEngine;
import org.overloadcontrol.jetty.OverloadHandler;

/**
 * Everything that can go wrong with a request, at once, in each container (issue 17): 10,000
 * requests at about 1,250/s against 4 permits, with wait queues under short deadlines,
 * admission control, and bandwidth shares that delay one group; the application throws, answers
 * through {@code sendError}, or goes async and never completes; clients reset mid-wait and
 * mid-response; and the container stops while requests wait. At rest: every request that
 * reached the filter has exactly one outcome, nothing waits, every permit is free, the
 * application's own count agrees with the engine's, and an application filter's own
 * {@code AsyncListener} ({@link ListeningFilter}) hears each request the filter held complete
 * once (issue 33); the same run against the Jetty handler. Bounded: about 10 s per container; {@link ChaosExperiment} is the long run.
 */
class ChaosIT {

  /** Requests per container. */
  int requests() {
    return 10_000;
  }

  /** Whether {@link #keys()} make the filter refuse and expire requests at this load. */
  boolean refuses() {
    return true;
  }

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

  /** The keys of every run: small queues, short deadlines, a bucket, two bandwidth groups. */
  Map<String, String> keys() {
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
    return params;
  }

  private static void forget() {
    MishapServlet.STARTED.clear();
    MishapServlet.RUNS.set(0);
    ListeningFilter.COMPLETIONS.clear();
    ListeningFilter.HELD.clear();
    MishapHandler.COMPLETIONS.clear();
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void atRestEveryRequestHasOneOutcomeAndNothingIsHeld(ContainerKind kind) throws Exception {
    forget();
    Path dir =
        new ExplodedWebApp()
            .withApplicationFilter("listening", ListeningFilter.class)
            .withOverloadFilter(keys())
            .withServlet("work", MishapServlet.class, Map.of(), "/work")
            .writeUnder(apps, kind + "-chaos");
    Sent sent;
    OverloadEngine engine;
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      engine = MishandledRequestsIT.engine(container);
      sent = send(kind.toString(), engine, container.baseUri().resolve("work"));
    }
    assertAtRest(kind.toString(), sent, engine);
    // The application's own listener (ListeningFilter), by how often it heard onComplete, what
    // the request asked for, whether its client reset and whether the filter held it first.
    Map<String, Integer> completionsSeen = new TreeMap<>();
    ListeningFilter.COMPLETIONS.forEach(
        (id, n) ->
            completionsSeen.merge(
                n.get()
                    + " "
                    + sent.kindOf().get(id)
                    + (ListeningFilter.HELD.contains(id) ? " held" : ""),
                1,
                Integer::sum));
    System.out.printf(
        "[%s] the application's own listener: requests by onComplete calls %s%n",
        kind, completionsSeen);
    // A request the filter held completes once for it, but for what the containers do with or
    // without the filter (ApplicationListenerIT): Tomcat completes one that answered through
    // sendError twice, Jetty one whose application went async again and timed out; and Jetty
    // never tells a request its stop cut off. What they do to requests the filter never held is
    // theirs: printed only.
    assertThat(completionsSeen.keySet())
        .as("onComplete calls per held request the application listened to")
        .filteredOn(k -> k.endsWith(" held"))
        .allSatisfy(k -> assertThat(completedAsTheContainerDoes(kind, k)).as(k).isTrue());
  }

  private static boolean completedAsTheContainerDoes(ContainerKind kind, String count) {
    return count.startsWith("1 ")
        || kind == ContainerKind.TOMCAT && count.startsWith("2 sendError")
        || kind == ContainerKind.JETTY && (count.startsWith("2 hang") || count.startsWith("0 "));
  }

  /**
   * The same run against the Jetty core handler in front of {@link MishapHandler}, with the same
   * keys; the application's own view is the callback it was given, which must complete once.
   */
  @Test
  void theHandlerAtRestEveryRequestHasOneOutcomeAndNothingIsHeld() throws Exception {
    forget();
    OverloadHandler handler =
        OverloadHandler.builder()
            .putAll(keys())
            .defaultEndpoint("work")
            .handler(new MishapHandler())
            .build();
    Server server = new Server(new QueuedThreadPool(Deployment.DEFAULT_MAX_THREADS, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    server.addConnector(connector);
    server.setHandler(handler);
    server.start();
    Sent sent;
    OverloadEngine engine = HandlerEngine.of(handler);
    try {
      sent =
          send(
              "HANDLER",
              engine,
              URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/work"));
    } finally {
      server.stop();
    }
    assertAtRest("HANDLER", sent, engine);
    Thread.sleep(1_500); // the last hanging requests' answers are due 1 s after they began
    Map<String, Integer> completionsSeen = new TreeMap<>();
    MishapHandler.COMPLETIONS.forEach(
        (id, n) -> completionsSeen.merge(n.get() + " " + sent.kindOf().get(id), 1, Integer::sum));
    System.out.printf(
        "[HANDLER] the application's callback: requests by completions %s%n", completionsSeen);
    // A handler that throws never completes its callback (Jetty answers with its own).
    assertThat(completionsSeen.keySet())
        .as("completions of the application's callback per request")
        .allSatisfy(k -> assertThat(k).startsWith(k.contains("fail") ? "0 " : "1 "));
  }

  /** What was sent: each answer, and what each request (by id) asked for. */
  private record Sent(List<CompletableFuture<Answer>> answers, Map<String, String> kindOf) {}

  /** Sends {@link #requests()} at 1,250 a second to {@code work}, 10 % reset by the client. */
  private Sent send(String label, OverloadEngine engine, URI work) throws InterruptedException {
    Random random = new Random(17);
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    Map<String, String> kindOf = new HashMap<>();
    int resets = 0;
    int lowestLimit = Integer.MAX_VALUE;
    long start = System.nanoTime();
    for (int i = 0; i < requests(); i++) {
      for (ConcurrencyGroup g : engine.concurrencyGroups()) {
        lowestLimit = Math.min(lowestLimit, g.limit());
      }
      long sleep = start + i * GAP_NANOS - System.nanoTime();
      if (sleep > 0) {
        TimeUnit.NANOSECONDS.sleep(sleep);
      }
      String query = query(random);
      kindOf.put(Integer.toString(i), kind(query));
      URI uri = URI.create(work + "?id=" + i + "&" + query);
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
        kindOf.merge(Integer.toString(i), " reset", String::concat);
        CompletableFuture.delayedExecutor(random.nextInt(300), TimeUnit.MILLISECONDS)
            .execute(() -> request.abort(new Exception("client left")));
      }
    }
    System.out.printf(
        "[%s] %d requests sent (%d reset by the client), %d waiting, lowest concurrency limit %s;"
            + " stopping%n",
        label,
        requests(),
        resets,
        engine.queues().waitingCount(),
        lowestLimit == Integer.MAX_VALUE ? "none" : Integer.toString(lowestLimit));
    return new Sent(answers, kindOf);
  }

  /** After the stop: arrivals = outcomes, nothing held, every kind of outcome, runs agree. */
  private void assertAtRest(String label, Sent sent, OverloadEngine engine) throws Exception {
    Map<Integer, Integer> seen = new TreeMap<>();
    for (CompletableFuture<Answer> a : sent.answers()) {
      seen.merge(a.get(30, TimeUnit.SECONDS).status(), 1, Integer::sum);
    }
    Totals totals = Totals.of(engine);
    // Requests the container refused or dropped before the adapter saw them never arrived.
    long arrivals = totals.arrivals();
    Totals settled = totals.assertAtRest(engine, (int) arrivals);
    long ran = settled.outcomes().get(Outcome.COMPLETED) + settled.outcomes().get(Outcome.FAILED);
    // Waiting or delayed requests whose client the adapter saw leave (a reset mid-wait).
    long abandoned =
        engine.endpoints().stream()
            .flatMap(e -> e.classes().stream())
            .mapToLong(EndpointClass::abandonedCount)
            .sum();
    System.out.printf(
        "[%s] clients saw %s; engine %s, %d abandoned; application ran %d requests%n",
        label, seen, settled, abandoned, MishapServlet.RUNS.get());
    assertThat(arrivals).as("requests that reached the adapter").isGreaterThan(requests() / 2);
    assertThat(settled.outcomes().get(Outcome.COMPLETED)).isPositive();
    assertThat(settled.outcomes().get(Outcome.FAILED)).isPositive();
    if (refuses()) {
      assertThat(settled.outcomes().get(Outcome.EXPIRED)).isPositive();
      assertThat(settled.outcomes().get(Outcome.REJECTED)).isPositive();
    }
    // Every run of the application is one outcome that says it ran; a request may also be
    // settled as run (FAILED) when the container ended it after its dispatch, unrun.
    assertThat(ran)
        .as("completed + failed vs the application's runs")
        .isGreaterThanOrEqualTo(MishapServlet.RUNS.get());
    assertThat((long) seen.getOrDefault(200, 0))
        .as("200s the clients saw")
        .isLessThanOrEqualTo(settled.outcomes().get(Outcome.COMPLETED));
  }

  /** What a query asks the application to do: answer, fail, sendError or hang. */
  private static String kind(String query) {
    for (String k : new String[] {"fail", "sendError", "hang"}) {
      if (query.contains(k + "=1")) {
        return k;
      }
    }
    return "answer";
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
