package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The ways a request was mishandled (issue 17, breaks 1, 2 and 4), each in Jetty 12 and Tomcat
 * 10.1 with the filter declared exactly as README shows it: mapped to the REQUEST dispatch only,
 * async supported. After each: arrivals = outcomes, nothing waiting, every permit free. Break 3
 * (clients that reset while waiting) is in {@link AdapterContractIT}, for the handler too.
 */
class MishandledRequestsIT {

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

  @BeforeEach
  void forget() {
    MishapServlet.STARTED.clear();
    MishapServlet.RUNS.set(0);
  }

  private static Path app(ContainerKind kind, String name, Map<String, String> params)
      throws Exception {
    return new ExplodedWebApp()
        .withOverloadFilter(params)
        .withServlet("work", MishapServlet.class, Map.of(), "/work", "/checkout")
        .writeUnder(apps, kind + "-" + name);
  }

  /** Break 1: a request delayed by its bandwidth share skipped admission and lost its outcome. */
  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aDelayedRequestIsAdmittedOrRefusedLikeAnyOther(ContainerKind kind) throws Exception {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("endpoints.work.target", "1s");
    params.put("admission.controller", "rate"); // limited to 5 requests/s by its bucket
    params.put("controller.initialRate", "5");
    params.put("bandwidth.total", "20KB/s");
    params.put("bandwidth.groups.a.share", "10%");
    params.put("bandwidth.groups.a.match.header", "X-Group=a");
    params.put("bandwidth.groups.b.share", "90%");
    params.put("bandwidth.groups.b.match.header", "X-Group=b");
    params.put("bandwidth.standbyLimit", "500");
    params.put("bandwidth.managerPeriod", "100ms");
    try (WebContainer container = kind.start(Deployment.of(app(kind, "delay", params)))) {
      OverloadEngine engine = engine(container);
      URI work = container.baseUri().resolve("work?bytes=5000");
      List<CompletableFuture<Answer>> answers = new ArrayList<>();
      // Group a takes the server first, so that it is over its share when both ask.
      for (int i = 0; i < 10; i++) {
        answers.add(send(client.newRequest(work).headers(h -> h.put("X-Group", "a"))));
        Thread.sleep(20);
      }
      int mostDelayed = 0;
      for (int i = 0; i < 150; i++) {
        answers.add(send(client.newRequest(work).headers(h -> h.put("X-Group", "a"))));
        answers.add(send(client.newRequest(work).headers(h -> h.put("X-Group", "b"))));
        Thread.sleep(10);
        mostDelayed = Math.max(mostDelayed, delayedNow(container));
      }
      Map<String, Integer> seen = new HashMap<>();
      for (CompletableFuture<Answer> a : answers) {
        Answer answer = a.get(30, TimeUnit.SECONDS);
        seen.merge(
            answer.status() + (answer.status() == 200 ? "/context=" + answer.context() : ""),
            1,
            Integer::sum);
      }
      Totals totals = Totals.of(engine);
      System.out.printf(
          "[%s] at most %d delayed at once; clients saw %s; engine %s%n",
          kind, mostDelayed, seen, totals);
      assertThat(mostDelayed).as("requests the shaper held for a delay").isPositive();
      assertThat(seen)
          .as("a 200 without the filter's context skipped admission")
          .doesNotContainKey("200/context=no");
      totals.assertAtRest(engine, answers.size());
    }
  }

  /** Break 2: a throwing servlet on a resumed request was recorded completed (Jetty). */
  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aServletThatThrowsIsRecordedFailed(ContainerKind kind) throws Exception {
    Map<String, String> params = Map.of("queue.permits", "1", "queue.maxWait", "20s");
    try (WebContainer container = kind.start(Deployment.of(app(kind, "throws", params)))) {
      OverloadEngine engine = engine(container);
      List<CompletableFuture<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        answers.add(send(client.newRequest(container.baseUri().resolve("work?ms=20&fail=1"))));
      }
      for (CompletableFuture<Answer> a : answers) {
        assertThat(a.get(30, TimeUnit.SECONDS).status()).isEqualTo(500);
      }
      Totals totals = Totals.of(engine).assertAtRest(engine, 20);
      System.out.printf("[%s] engine %s%n", kind, totals);
      assertThat(totals.outcomes().get(Outcome.FAILED)).as("failed").isEqualTo(20);
      assertThat(engine.endpoint("work").classes().get(0).enqueuedCount())
          .as("requests that were resumed from the queue")
          .isPositive();
    }
  }

  /** Break 2: at shutdown the filter wrote a 503 under requests that were executing. */
  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void atAStopWaitingRequestsGet503AndRunningOnesAreLeftAlone(ContainerKind kind) throws Exception {
    Map<String, String> params =
        Map.of("queue.permits", "4", "queue.maxWait", "20s", "queue.browsingCapacity", "100");
    OverloadEngine engine;
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    try (WebContainer container = kind.start(Deployment.of(app(kind, "stop", params)))) {
      engine = engine(container);
      // Four permits of 200 ms and 40 requests: most run after a wait, resumed from the queue.
      for (int i = 0; i < 40; i++) {
        answers.add(
            send(
                client
                    .newRequest(container.baseUri().resolve("work?ms=200&id=" + i))
                    .timeout(30, TimeUnit.SECONDS)));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (MishapServlet.STARTED.size() < 12 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
    }
    int refusedWhileRunning = 0;
    int refused = 0;
    for (int i = 0; i < answers.size(); i++) {
      Answer a = answers.get(i).get(30, TimeUnit.SECONDS);
      if (a.status() == 503) {
        refused++;
        if (MishapServlet.STARTED.contains(Integer.toString(i))) {
          refusedWhileRunning++;
        }
      }
    }
    Totals totals = Totals.of(engine);
    System.out.printf(
        "[%s] started %d, 503 %d (of which the application had begun %d); %s%n",
        kind, MishapServlet.STARTED.size(), refused, refusedWhileRunning, totals);
    assertThat(refusedWhileRunning).as("503s written under executing requests").isZero();
    assertThat(refused).as("waiting requests answered at the stop").isPositive();
    totals.assertAtRest(engine, 40);
  }

  /** Break 4: Tomcat answered a path parameter on a virtual-queue path with a 500. */
  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aPathParameterOnAQueuedPathIsAnsweredAsWithoutIt(ContainerKind kind) throws Exception {
    Map<String, String> params =
        Map.of(
            "virtualQueue.enabled",
            "true",
            "virtualQueue.paths",
            "/checkout",
            "virtualQueue.capacity",
            "1");
    try (WebContainer container = kind.start(Deployment.of(app(kind, "vq", params)))) {
      OverloadEngine engine = engine(container);
      Map<String, Integer> bare = new HashMap<>();
      Map<String, Integer> withParameter = new HashMap<>();
      int sent = 0;
      for (String suffix : List.of("", ";x=1", ";jsessionid=abc", "", ";x=1", ";jsessionid=abc")) {
        for (int i = 0; i < 3; i++) {
          Answer a =
              send(client
                      .newRequest(container.baseUri().resolve("checkout" + suffix))
                      .headers(h -> h.put("Accept", "text/html")))
                  .get(30, TimeUnit.SECONDS);
          sent++;
          (suffix.isEmpty() ? bare : withParameter)
              .merge(a.status() + (a.cookie() ? "+cookie" : ""), 1, Integer::sum);
        }
      }
      Totals totals = Totals.of(engine);
      System.out.printf(
          "[%s] without parameter %s, with %s; %s%n", kind, bare, withParameter, totals);
      assertThat(withParameter)
          .as("answers with a path parameter")
          .doesNotContainKey("500")
          .containsKey("200+cookie");
      assertThat(withParameter.keySet()).isSubsetOf(bare.keySet());
      totals.assertAtRest(engine, sent);
    }
  }

  /** The requests the shaper holds for their delay now, summed over groups (status JSON). */
  private static int delayedNow(WebContainer container) {
    Object o =
        container
            .servletContext()
            .getAttribute(org.overloadcontrol.internal.metrics.Observability.ATTRIBUTE);
    if (!(o instanceof org.overloadcontrol.internal.metrics.Observability observability)) {
      return 0;
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"delayedNow\":(\\d+)")
            .matcher(observability.statusJson());
    int sum = 0;
    while (m.find()) {
      sum += Integer.parseInt(m.group(1));
    }
    return sum;
  }

  static OverloadEngine engine(WebContainer container) {
    return FilterEngine.of(container.servletContext());
  }

  /** What a client saw. */
  record Answer(int status, String context, boolean cookie) {}

  static CompletableFuture<Answer> send(Request request) {
    CompletableFuture<Answer> f = new CompletableFuture<>();
    request.send(
        new BufferingResponseListener() {
          @Override
          public void onComplete(Result result) {
            if (result.getResponse() == null || result.isFailed()) {
              f.complete(new Answer(-1, null, false));
              return;
            }
            f.complete(
                new Answer(
                    result.getResponse().getStatus(),
                    result.getResponse().getHeaders().get("X-Overload-Context"),
                    result.getResponse().getHeaders().get("Set-Cookie") != null));
          }
        });
    return f;
  }

  /** The engine's arrivals and outcomes over every endpoint and class. */
  record Totals(long arrivals, Map<Outcome, Long> outcomes) {

    static Totals of(OverloadEngine engine) {
      long arrivals = 0;
      Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
      for (Outcome o : Outcome.values()) {
        outcomes.put(o, 0L);
      }
      for (ControlledEndpoint e : engine.endpoints()) {
        for (EndpointClass c : e.classes()) {
          arrivals += c.arrivalCount();
          for (Outcome o : Outcome.values()) {
            outcomes.merge(o, c.outcomeCount(o), Long::sum);
          }
        }
      }
      return new Totals(arrivals, outcomes);
    }

    long settled() {
      return outcomes.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Arrivals = outcomes = requests sent; nothing waiting; every permit free. A client may
     * have its answer a moment before the container reports the completion, so the counts are
     * read again for up to five seconds.
     */
    Totals assertAtRest(OverloadEngine engine, int sent) throws InterruptedException {
      Totals now = this;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (now.settled() < now.arrivals() && System.nanoTime() < deadline) {
        Thread.sleep(20);
        now = of(engine);
      }
      if (now != this) {
        System.out.printf("  settled later: %s%n", now);
      }
      assertThat(now.arrivals()).as("arrivals").isEqualTo(sent);
      assertThat(now.settled()).as("outcomes (%s)", now).isEqualTo(now.arrivals());
      if (engine.queues() != null) {
        assertThat(engine.queues().waitingCount()).as("left waiting").isZero();
        assertThat(engine.queues().permitsInUse()).as("permits not returned").isZero();
      }
      return now;
    }
  }
}
