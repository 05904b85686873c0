package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.MishandledRequestsIT.Answer;
import org.overloadcontrol.it.MishandledRequestsIT.Totals;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.MishapHandler;
import org.overloadcontrol.it.support.MishapResource;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.it.support.WaitingClients;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.jetty.HandlerEngine;
import org.overloadcontrol.jetty.OverloadHandler;
import org.overloadcontrol.rest.RestInJetty;

/**
 * One contract, four adapters: the same scenarios against the servlet filter in Jetty, the
 * servlet filter in Tomcat, the Jetty core handler, and the Jakarta REST feature (Jersey's
 * servlet in Jetty), each configured with the same keys for an endpoint named {@code work}.
 * Each scenario ends at rest: arrivals = outcomes, nothing waiting, every permit free. A
 * Jakarta REST filter cannot be suspended, so the feature holds a waiting request on its thread
 * and notices neither a client that leaves nor a graceful stop while it waits (its class
 * comment): the scenarios that need that leave it out.
 */
class AdapterContractIT {

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(1024);
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

  /** A running adapter in front of the misbehaving application. */
  interface Target extends AutoCloseable {
    URI work(String query);

    OverloadEngine engine();

    /** Stops the adapter; unchecked, so that try-with-resources has nothing to catch. */
    @Override
    void close();
  }

  enum Adapter {
    FILTER_IN_JETTY,
    FILTER_IN_TOMCAT,
    HANDLER_IN_JETTY,
    REST_IN_JETTY;

    /**
     * The status of its refusals under {@code rejectionStatus: auto}: 429 in Tomcat, which
     * closes the connection after every 503.
     */
    int refusalStatus() {
      return this == FILTER_IN_TOMCAT ? 429 : 503;
    }

    Target start(String name, Map<String, String> keys) throws Exception {
      return start(name, keys, Duration.ZERO);
    }

    /** As {@link #start(String, Map)}, stopping gracefully within {@code gracefulStop}. */
    Target start(String name, Map<String, String> keys, Duration gracefulStop) throws Exception {
      if (this == REST_IN_JETTY) {
        RestInJetty rest = RestInJetty.start(MishapResource.class, keys, gracefulStop);
        return new Target() {
          @Override
          public URI work(String query) {
            return rest.base().resolve("work?" + query);
          }

          @Override
          public OverloadEngine engine() {
            return rest.engine();
          }

          @Override
          public void close() {
            rest.close();
          }
        };
      }
      if (this == HANDLER_IN_JETTY) {
        OverloadHandler handler =
            OverloadHandler.builder()
                .putAll(keys)
                .defaultEndpoint("work")
                .handler(new MishapHandler())
                .build();
        Server server = new Server(new QueuedThreadPool(48, 4));
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost(Deployment.HOST);
        server.addConnector(connector);
        if (!gracefulStop.isZero()) {
          server.setHandler(new GracefulHandler(handler));
          server.setStopTimeout(gracefulStop.toMillis());
        } else {
          server.setHandler(handler);
        }
        server.start();
        return new Target() {
          @Override
          public URI work(String query) {
            return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/work?" + query);
          }

          @Override
          public OverloadEngine engine() {
            return HandlerEngine.of(handler);
          }

          @Override
          public void close() {
            try {
              server.stop();
            } catch (Exception e) {
              throw new IllegalStateException("stopping the server", e);
            }
          }
        };
      }
      ContainerKind kind = this == FILTER_IN_JETTY ? ContainerKind.JETTY : ContainerKind.TOMCAT;
      Path dir =
          new ExplodedWebApp()
              .withOverloadFilter(keys)
              .withServlet("work", MishapServlet.class, Map.of(), "/work")
              .writeUnder(apps, this + "-" + name);
      WebContainer container = kind.start(Deployment.of(dir).withGracefulStop(gracefulStop));
      OverloadEngine engine = MishandledRequestsIT.engine(container);
      return new Target() {
        @Override
        public URI work(String query) {
          return container.baseUri().resolve("work?" + query);
        }

        @Override
        public OverloadEngine engine() {
          return engine;
        }

        @Override
        public void close() {
          container.close();
        }
      };
    }
  }

  @ParameterizedTest
  @EnumSource(Adapter.class)
  void anApplicationThatThrowsIsRecordedFailedAlsoAfterAWait(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start("throws", Map.of("queue.permits", "1", "queue.maxWait", "20s"))) {
      List<CompletableFuture<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        answers.add(MishandledRequestsIT.send(client.newRequest(target.work("ms=20&fail=1"))));
      }
      for (CompletableFuture<Answer> a : answers) {
        assertThat(a.get(30, TimeUnit.SECONDS).status()).isEqualTo(500);
      }
      Totals totals = Totals.of(target.engine()).assertAtRest(target.engine(), 20);
      System.out.printf("[%s] %s%n", adapter, totals);
      assertThat(totals.outcomes().get(Outcome.FAILED)).isEqualTo(20);
    }
  }

  /**
   * An adapter whose endpoint admits one request and refuses the next ones at once: the rate
   * controller's bucket holds one token (the concurrency limit would let them all run).
   */
  private static final Map<String, String> REFUSING_AFTER_ONE =
      Map.of(
          "admission.controller",
          "rate",
          "endpoints.work.target",
          "1s",
          "controller.initialRate",
          "0.1");

  private static Target startRefusingAfterOne(Adapter adapter, String name) throws Exception {
    return adapter.start(name, REFUSING_AFTER_ONE);
  }

  @ParameterizedTest
  @EnumSource(Adapter.class)
  void aRefusedRequestGetsItsStatusWithRetryAfter(Adapter adapter) throws Exception {
    int refused = adapter.refusalStatus();
    try (Target target = startRefusingAfterOne(adapter, "refused")) {
      Answer first =
          MishandledRequestsIT.send(client.newRequest(target.work(""))).get(30, TimeUnit.SECONDS);
      var second =
          client
              .newRequest(target.work(""))
              .headers(h -> h.put("Accept", "application/json"))
              .send();
      assertThat(first.status()).isEqualTo(200);
      assertThat(first.context()).isEqualTo("yes");
      assertThat(second.getStatus()).isEqualTo(refused);
      assertThat(second.getHeaders().get("Retry-After")).isEqualTo("10");
      assertThat(second.getHeaders().get("Content-Type")).startsWith("application/problem+json");
      Totals.of(target.engine()).assertAtRest(target.engine(), 2);
    }
  }

  /**
   * A refusal leaves the connection open: a client that re-sends at once (as {@code ab}, {@code
   * wrk} and many HTTP libraries' retry policies do) re-sends on it instead of opening a new one,
   * which would cost both sides a handshake per refusal and hold the re-sent request in the
   * client until it has one. Tomcat closes the connection after every 503 whoever wrote it (its
   * HTTP/1.1 processor drops the connection for that status), so there the default ({@code
   * rejectionStatus: auto}) answers 429, which it keeps the connection after.
   */
  @ParameterizedTest
  @EnumSource(Adapter.class)
  void aRefusalLeavesTheConnectionOpen(Adapter adapter) throws Exception {
    try (Target target = startRefusingAfterOne(adapter, "refused-kept")) {
      String status = " " + adapter.refusalStatus() + " ";
      assertThat(refusalsOnOneConnection(target, status)).isEqualTo(3);
      Totals.of(target.engine()).assertAtRest(target.engine(), 4);
    }
  }

  /**
   * Why Tomcat's default is 429: told to answer 503 ({@code rejectionStatus: 503}), its refusal
   * closes the connection. This says when Tomcat changes that.
   */
  @Test
  void tomcatClosesTheConnectionAfterA503() throws Exception {
    Map<String, String> keys = new HashMap<>(REFUSING_AFTER_ONE);
    keys.put("rejectionStatus", "503");
    try (Target target = Adapter.FILTER_IN_TOMCAT.start("refused-503", keys)) {
      assertThat(refusalsOnOneConnection(target, " 503 ")).isEqualTo(1);
      Totals.of(target.engine()).assertAtRest(target.engine(), 2);
    }
  }

  /**
   * After the bucket's one token, sends up to three refused requests on one connection; returns
   * how many were answered {@code status} before the server closed it (after the first, it must
   * say {@code Connection: close}).
   */
  private int refusalsOnOneConnection(Target target, String status) throws Exception {
    URI work = target.work("");
    assertThat(
            MishandledRequestsIT.send(client.newRequest(work)).get(30, TimeUnit.SECONDS).status())
        .isEqualTo(200); // the bucket's one token
    try (Socket socket = new Socket(work.getHost(), work.getPort())) {
      socket.setSoTimeout(10_000);
      var in = new BufferedInputStream(socket.getInputStream());
      for (int i = 0; i < 3; i++) {
        socket
            .getOutputStream()
            .write(
                ("GET "
                        + work.getRawPath()
                        + "?"
                        + work.getRawQuery()
                        + " HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\nAccept: application/json\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        Map<String, String> headers = new HashMap<>();
        assertThat(readResponse(in, headers)).as("refusal %d", i).contains(status);
        if (headers.getOrDefault("connection", "").contains("close")) {
          assertThat(in.read()).as("the connection closed").isEqualTo(-1);
          return i + 1;
        }
      }
      return 3;
    }
  }

  /** Reads one response with a {@code Content-Length} body: its status line; headers lower-cased. */
  private static String readResponse(InputStream in, Map<String, String> headers)
      throws IOException {
    String status = readLine(in);
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    assertThat(in.readNBytes(length)).hasSize(length);
    return status;
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("the server closed the connection after: " + line);
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  /**
   * Issue 35: a refusal is the whole response, written alike by every adapter, and carries no
   * cookie meant for a request that runs. Sessions are admitted with a signed cookie; the one
   * permit is held; a new session's request then waits past {@code queue.maxWait} and is
   * refused. Its session never started (the session gate drops it), so its 503 sets no
   * cookie, while the request that ran carries its session's. The Jakarta REST feature sent the
   * session cookie on the 503.
   */
  @ParameterizedTest
  @EnumSource(Adapter.class)
  void aRefusalIsWrittenAloneWithoutTheCookiesOfARequestThatRuns(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start(
            "refusal",
            Map.of(
                "endpoints.work.target",
                "20s",
                "admission.initialLimit",
                "1",
                "admission.maxLimit",
                "1",
                "queue.maxWait",
                "200ms",
                "sessions.enabled",
                "true"))) {
      CompletableFuture<ContentResponse> holder =
          new CompletableResponseListener(
                  client
                      .newRequest(target.work("ms=1500&id=holder"))
                      .headers(h -> h.put("Accept", "application/json"))
                      .timeout(30, TimeUnit.SECONDS))
              .send();
      await("the holder runs").until(() -> MishapServlet.STARTED.contains("holder"));
      URI refusedUri = target.work("id=refused");
      ContentResponse refused =
          client
              .newRequest(refusedUri)
              .headers(h -> h.put("Accept", "application/json"))
              .timeout(30, TimeUnit.SECONDS)
              .send();
      ContentResponse ran = holder.get(30, TimeUnit.SECONDS);
      System.out.printf(
          "[%s] refusal: %d %s%n%s%n",
          adapter, refused.getStatus(), refused.getHeaders(), refused.getContentAsString());

      assertThat(refused.getStatus()).isEqualTo(adapter.refusalStatus());
      assertThat(MishapServlet.STARTED).doesNotContain("refused");
      assertThat(refused.getHeaders().getValuesList("Set-Cookie"))
          .as("cookies on the refusal")
          .isEmpty();
      assertThat(refused.getHeaders().get("Cache-Control")).isEqualTo("no-store");
      assertThat(refused.getHeaders().get("X-Overload-Context")).isNull();
      assertThat(refused.getMediaType()).isEqualTo("application/problem+json");
      String body = refused.getContentAsString();
      assertThat(body)
          .startsWith(
              "{\"type\":\"about:blank\",\"title\":\""
                  + (adapter.refusalStatus() == 429 ? "Too Many Requests" : "Service Unavailable")
                  + "\",\"status\":"
                  + adapter.refusalStatus()
                  + ",")
          .contains("\"instance\":\"" + refusedUri.getRawPath() + "\"")
          .contains("\"endpoint\":\"work\"");
      String retryAfter = refused.getHeaders().get("Retry-After");
      if (retryAfter == null) {
        assertThat(body).contains("\"retryAfterSeconds\":0}");
      } else {
        assertThat(body).endsWith("\"retryAfterSeconds\":" + retryAfter + "}");
      }

      assertThat(ran.getStatus()).isEqualTo(200);
      assertThat(ran.getHeaders().get("X-Overload-Context")).isEqualTo("yes");
      assertThat(ran.getHeaders().getValuesList("Set-Cookie"))
          .as("cookies of the request that ran")
          .singleElement(InstanceOfAssertFactories.STRING)
          .matches("oc_session=[^;]+; Path=/[^;]*; HttpOnly; SameSite=Lax");
      Totals.of(target.engine()).assertAtRest(target.engine(), 2);
    }
  }

  /**
   * An answer (here the virtual queue's, to an API client told to come back) is the whole
   * response too: its status, {@code Cache-Control}, {@code Retry-After}, its own cookie (the
   * queue token) and its body, the same from every adapter.
   */
  @ParameterizedTest
  @EnumSource(Adapter.class)
  void anAnswerIsWrittenAloneWithItsOwnCookie(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start(
            "answer",
            Map.of(
                "virtualQueue.enabled",
                "true",
                "virtualQueue.paths",
                "/work",
                "virtualQueue.capacity",
                "1"))) {
      ContentResponse answer = null;
      int sent = 0;
      while (answer == null && sent < 5) {
        ContentResponse r =
            client
                .newRequest(target.work("id=a" + sent))
                .headers(h -> h.put("Accept", "application/json"))
                .timeout(30, TimeUnit.SECONDS)
                .send();
        sent++;
        if (r.getHeaders().get("X-Overload-Context") == null) {
          answer = r;
        }
      }
      assertThat(answer).as("the virtual queue's answer within %d requests", sent).isNotNull();
      System.out.printf(
          "[%s] answer: %d %s%n%s%n",
          adapter, answer.getStatus(), answer.getHeaders(), answer.getContentAsString());
      assertThat(answer.getStatus()).isEqualTo(503);
      assertThat(answer.getHeaders().get("Cache-Control")).isEqualTo("no-store");
      assertThat(answer.getHeaders().get("Retry-After")).matches("[1-9][0-9]*");
      assertThat(answer.getHeaders().getValuesList("Set-Cookie"))
          .singleElement(InstanceOfAssertFactories.STRING)
          .startsWith("oc_token=");
      assertThat(answer.getMediaType()).isEqualTo("application/json");
      assertThat(answer.getContentAsString())
          .contains("\"waitSeconds\":" + answer.getHeaders().get("Retry-After"));
      Totals.of(target.engine()).assertAtRest(target.engine(), sent);
    }
  }

  @ParameterizedTest
  @EnumSource(Adapter.class)
  void aDelayedRequestIsAdmittedLikeAnyOther(Adapter adapter) throws Exception {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("endpoints.work.target", "1s");
    keys.put("admission.controller", "rate"); // limited to 5 requests/s by its bucket
    keys.put("controller.initialRate", "5");
    keys.put("bandwidth.total", "20KB/s");
    keys.put("bandwidth.groups.a.share", "10%");
    keys.put("bandwidth.groups.a.match.header", "X-Group=a");
    keys.put("bandwidth.groups.b.share", "90%");
    keys.put("bandwidth.groups.b.match.header", "X-Group=b");
    keys.put("bandwidth.standbyLimit", "500");
    keys.put("bandwidth.managerPeriod", "100ms");
    try (Target target = adapter.start("delay", keys)) {
      List<CompletableFuture<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(target.work("bytes=5000")).headers(h -> h.put("X-Group", "a"))));
        Thread.sleep(20);
      }
      for (int i = 0; i < 100; i++) {
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(target.work("bytes=5000")).headers(h -> h.put("X-Group", "a"))));
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(target.work("bytes=5000")).headers(h -> h.put("X-Group", "b"))));
        Thread.sleep(10);
      }
      Map<String, Integer> seen = new HashMap<>();
      for (CompletableFuture<Answer> a : answers) {
        Answer answer = a.get(30, TimeUnit.SECONDS);
        seen.merge(
            answer.status() + (answer.status() == 200 ? "/context=" + answer.context() : ""),
            1,
            Integer::sum);
      }
      Totals totals = Totals.of(target.engine()).assertAtRest(target.engine(), answers.size());
      System.out.printf("[%s] clients saw %s; %s%n", adapter, seen, totals);
      assertThat(seen).doesNotContainKey("200/context=no");
      assertThat(seen.get("200/context=yes")).isPositive();
    }
  }

  @ParameterizedTest
  @EnumSource(Adapter.class)
  void aPathParameterOnAVirtualQueuePathIsAnsweredAsWithoutIt(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start(
            "vq",
            Map.of(
                "virtualQueue.enabled",
                "true",
                "virtualQueue.paths",
                "/work",
                "virtualQueue.capacity",
                "1"))) {
      Map<String, Integer> bare = new HashMap<>();
      Map<String, Integer> withParameter = new HashMap<>();
      int sent = 0;
      for (String suffix : List.of("", ";x=1", ";jsessionid=abc", "", ";x=1")) {
        for (int i = 0; i < 3; i++) {
          URI uri = target.work("");
          uri = URI.create(uri.toString().replace("/work?", "/work" + suffix + "?"));
          Answer a =
              MishandledRequestsIT.send(
                      client.newRequest(uri).headers(h -> h.put("Accept", "text/html")))
                  .get(30, TimeUnit.SECONDS);
          sent++;
          (suffix.isEmpty() ? bare : withParameter)
              .merge(a.status() + (a.cookie() ? "+cookie" : ""), 1, Integer::sum);
        }
      }
      Totals totals = Totals.of(target.engine()).assertAtRest(target.engine(), sent);
      System.out.printf(
          "[%s] without parameter %s, with %s; %s%n", adapter, bare, withParameter, totals);
      assertThat(withParameter).doesNotContainKey("500").containsKey("200+cookie");
      assertThat(withParameter.keySet()).isSubsetOf(bare.keySet());
    }
  }

  @ParameterizedTest
  @EnumSource(Adapter.class)
  void atAStopWaitingRequestsGet503AndRunningOnesAreNotTouched(Adapter adapter) throws Exception {
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    OverloadEngine engine;
    try (Target target =
        adapter.start(
            "stop",
            Map.of(
                "queue.permits", "4", "queue.maxWait", "20s", "queue.browsingCapacity", "100"))) {
      engine = target.engine();
      for (int i = 0; i < 40; i++) {
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(target.work("ms=200&id=" + i)).timeout(30, TimeUnit.SECONDS)));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (MishapServlet.STARTED.size() < 12 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
    }
    int refusedWhileRunning = 0;
    int refused = 0;
    for (int i = 0; i < answers.size(); i++) {
      if (answers.get(i).get(30, TimeUnit.SECONDS).status() == 503) {
        refused++;
        if (MishapServlet.STARTED.contains(Integer.toString(i))) {
          refusedWhileRunning++;
        }
      }
    }
    Totals totals = Totals.of(engine).assertAtRest(engine, 40);
    System.out.printf(
        "[%s] started %d, 503 %d; %s%n", adapter, MishapServlet.STARTED.size(), refused, totals);
    assertThat(refusedWhileRunning).as("503s written under running requests").isZero();
    assertThat(refused).as("waiting requests answered at the stop").isPositive();
  }

  /**
   * Issue 33, item 3: a graceful stop (5 s, as Jetty's graceful module or Tomcat's
   * {@code gracefulStopAwaitMillis} sets it) while 300 requests wait behind 4 permits. Both
   * containers destroy the filter only after their wait for the requests in progress: the
   * queue went on feeding the application through the stop, and in Jetty the clients of the
   * requests it started got no answer when the connections closed. When the stop begins, every waiting
   * request is answered 503 and none of them reaches the application; each client gets one
   * answer. (A request the queue handed a permit to just before the stop may start a moment
   * after it: at most one per permit.)
   */
  @ParameterizedTest
  @EnumSource(
      value = Adapter.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = "REST_IN_JETTY") // holds its waiting requests on threads, which a stop waits for
  void aGracefulStopAnswersTheWaitingAtOnceAndRunsNoneOfThem(Adapter adapter) throws Exception {
    int permits = 4;
    int sent = 304;
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    OverloadEngine engine;
    int ranBefore;
    long stopMillis;
    Target target =
        adapter.start(
            "graceful",
            Map.of(
                "queue.permits",
                Integer.toString(permits),
                "queue.maxWait",
                "60s",
                "queue.browsingCapacity",
                "400"),
            Duration.ofSeconds(5));
    try {
      engine = target.engine();
      for (int i = 0; i < sent; i++) {
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(target.work("ms=1000&id=" + i)).timeout(30, TimeUnit.SECONDS)));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (Totals.of(engine).arrivals() < sent && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(engine.queues().waitingCount()).as("waiting at the stop").isGreaterThan(250);
    } finally {
      ranBefore = MishapServlet.RUNS.get();
      long start = System.nanoTime();
      try {
        target.close();
      } catch (IllegalStateException e) {
        // Jetty's stop reports a graceful wait that ran out of time; the answers tell more.
        System.out.printf("[%s] the stop said: %s%n", adapter, e.getCause());
      }
      stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
    int ranDuring = MishapServlet.RUNS.get() - ranBefore;
    Map<Integer, Integer> seen = new java.util.TreeMap<>();
    for (CompletableFuture<Answer> a : answers) {
      seen.merge(a.get(30, TimeUnit.SECONDS).status(), 1, Integer::sum);
    }
    Totals totals = Totals.of(engine).assertAtRest(engine, sent);
    System.out.printf(
        "[%s] graceful stop took %d ms; the application began %d before it, %d during it;"
            + " clients saw %s; %s%n",
        adapter, stopMillis, ranBefore, ranDuring, seen, totals);
    assertThat(seen).as("statuses the clients saw (-1: no answer)").doesNotContainKey(-1);
    assertThat(ranDuring)
        .as("requests the application began during the stop")
        .isLessThanOrEqualTo(permits);
    assertThat(seen.keySet()).as("statuses the clients saw").containsOnly(200, 503);
    assertThat(seen.get(200))
        .as("200s: one per run of the application")
        .isEqualTo(ranBefore + ranDuring);
  }

  /**
   * Break 3: clients that reset their connection while waiting stayed in the queue and were
   * later served. 100 raw HTTP/1.1 connections each send one request, wait in the queue behind
   * a request that holds the only permit for 5 s, then reset (RST). A request whose container
   * reports the reset leaves its queue at once, counted abandoned; one whose container cannot
   * tell (neither servlet container reads a connection whose request is suspended) leaves by its
   * deadline ({@code queue.maxWait}, here 1 s, so that all have left before the permit frees
   * even when opening 100 connections takes seconds on a busy machine). Either way each has one
   * outcome, EXPIRED, and none reaches the application; the printed counts say which way.
   */
  @ParameterizedTest
  @EnumSource(Adapter.class)
  void clientsThatResetWhileWaitingNeverReachTheApplication(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start(
            "reset",
            Map.of("queue.permits", "1", "queue.maxWait", "1s", "queue.browsingCapacity", "200"))) {
      OverloadEngine engine = target.engine();
      CompletableFuture<Answer> holder =
          MishandledRequestsIT.send(
              client.newRequest(target.work("ms=5000&id=holder")).timeout(30, TimeUnit.SECONDS));
      await("the holder runs")
          .atMost(Duration.ofSeconds(5))
          .until(() -> MishapServlet.STARTED.contains("holder"));
      List<Socket> sockets = WaitingClients.open(100, i -> target.work("id=w" + i));
      await("arrived before the resets")
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> Totals.of(engine).arrivals() >= 101);
      assertThat(Totals.of(engine).arrivals()).as("arrived before the resets").isEqualTo(101);
      WaitingClients.close(sockets, i -> true); // resets, as clients that gave up
      // Detected resets empty the queue at once; otherwise the deadline does.
      Thread.sleep(100);
      EndpointClass work = engine.endpoint("work").classes().get(0);
      System.out.printf(
          "[%s] 100 ms after 100 resets: %d still waiting, %d abandoned%n",
          adapter, engine.queues().waitingCount(), work.abandonedCount());
      assertThat(holder.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
      long ranAfterReset = MishapServlet.STARTED.stream().filter(id -> id.startsWith("w")).count();
      System.out.printf(
          "[%s] after the holder: run by the application %d, expired %d," + " abandoned %d%n",
          adapter, ranAfterReset, work.outcomeCount(Outcome.EXPIRED), work.abandonedCount());
      assertThat(ranAfterReset).as("reached the application after leaving").isZero();
      assertThat(work.outcomeCount(Outcome.EXPIRED))
          .as("left by deadline or as abandoned")
          .isEqualTo(100);
      Totals.of(engine).assertAtRest(engine, 101);
    }
  }

  /**
   * Issue 33: clients that close their connection while waiting, with a long {@code maxWait}
   * (60 s), against the adapters that can tell. 100 raw HTTP/1.1 connections wait behind a
   * request that holds the only permit for 8 s; half close normally (FIN), half reset (RST).
   * Each must leave its queue at once, counted abandoned, and never reach the application.
   * Jetty can tell, to the handler ({@code ClientWatch}) and to the filter
   * ({@code JettyClientWatch}); Tomcat cannot (docs/guide/wait-queues.md), where
   * they leave by {@code maxWait}.
   */
  @ParameterizedTest
  @EnumSource(names = {"HANDLER_IN_JETTY", "FILTER_IN_JETTY"})
  void clientsThatCloseWhileWaitingLeaveTheQueueAtOnce(Adapter adapter) throws Exception {
    try (Target target =
        adapter.start(
            "close",
            Map.of(
                "queue.permits", "1", "queue.maxWait", "60s", "queue.browsingCapacity", "200"))) {
      OverloadEngine engine = target.engine();
      CompletableFuture<Answer> holder =
          MishandledRequestsIT.send(
              client.newRequest(target.work("ms=8000&id=holder")).timeout(30, TimeUnit.SECONDS));
      await("the holder runs")
          .atMost(Duration.ofSeconds(5))
          .until(() -> MishapServlet.STARTED.contains("holder"));
      List<Socket> sockets = WaitingClients.open(100, i -> target.work("id=c" + i));
      await("waiting before the clients leave")
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> engine.queues().waitingCount() >= 100);
      assertThat(engine.queues().waitingCount())
          .as("waiting before the clients leave")
          .isEqualTo(100);
      long closed = System.nanoTime();
      WaitingClients.close(sockets, i -> i % 2 == 1); // half FIN, half RST
      EndpointClass work = engine.endpoint("work").classes().get(0);
      // A waiter leaves the queue a moment before it is counted.
      await("the queue empty and every waiter counted")
          .atMost(Duration.ofSeconds(2))
          .pollInterval(Duration.ofMillis(5))
          .untilAsserted(
              () -> {
                assertThat(engine.queues().waitingCount())
                    .as("waiting 2 s after the closes")
                    .isZero();
                assertThat(work.abandonedCount()).as("counted abandoned").isEqualTo(100);
              });
      long emptiedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
      System.out.printf(
          "[%s] %d ms after 100 closes (50 FIN, 50 RST): %d still waiting, %d abandoned%n",
          adapter, emptiedMillis, engine.queues().waitingCount(), work.abandonedCount());
      assertThat(holder.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
      long ran = MishapServlet.STARTED.stream().filter(id -> id.startsWith("c")).count();
      assertThat(ran).as("reached the application after leaving").isZero();
      assertThat(work.outcomeCount(Outcome.EXPIRED)).as("each settled once").isEqualTo(100);
      Totals.of(engine).assertAtRest(engine, 101);
    }
  }
}
