package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.MishandledRequestsIT.Answer;
import org.overloadcontrol.it.MishandledRequestsIT.Totals;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.ListeningFilter;
import org.overloadcontrol.it.support.MishapServlet;
import org.overloadcontrol.it.support.SelfDispatchServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Issue 33, item 4: what the application's own {@link jakarta.servlet.AsyncListener} sees of a
 * request the filter held. An application filter in front of ours ({@link ListeningFilter})
 * adds its listener when a request is still asynchronous after the chain returns, which a
 * request waiting for a permit is. Each such request completes once for that listener, whatever
 * the application does when it runs (answer, {@code sendError}, throw, go async), but for two
 * cases that are the containers' own. In Tomcat 10.1 and 11 one that answers through {@code sendError}
 * completes twice: Tomcat fires the listeners of the suspension when the resumed dispatch ends,
 * then takes the error status of that finished dispatch for an asynchronous error, re-enters
 * async processing and fires them again. In Jetty 12 one whose application goes async again and
 * is ended by its timeout completes twice. The second test shows both containers do the same
 * without the filter; the first pins that the filter adds nothing to it (no other request
 * completes twice, and the engine counts each once).
 */
class ApplicationListenerIT {

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(256);
    client.start();
  }

  @AfterAll
  static void stopClient() throws Exception {
    client.stop();
  }

  @BeforeEach
  void forget() {
    ListeningFilter.COMPLETIONS.clear();
    MishapServlet.STARTED.clear();
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aRequestThatWaitedCompletesForTheApplicationsListenerAsTheContainerCompletesIt(
      ContainerKind kind) throws Exception {
    Path dir =
        new ExplodedWebApp()
            .withApplicationFilter("listening", ListeningFilter.class)
            .withOverloadFilter(Map.of("queue.permits", "1", "queue.maxWait", "20s"))
            .withServlet("work", MishapServlet.class, Map.of(), "/work")
            .writeUnder(apps, kind + "-listener");
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      OverloadEngine engine = MishandledRequestsIT.engine(container);
      List<CompletableFuture<Answer>> answers = new ArrayList<>();
      answers.add(
          MishandledRequestsIT.send(
              client.newRequest(container.baseUri().resolve("work?ms=500&id=holder"))));
      await("the holder runs")
          .atMost(Duration.ofSeconds(5))
          .until(() -> MishapServlet.STARTED.contains("holder"));
      List<String> waiting = new ArrayList<>();
      String[] asks = {"sendError=1", "", "fail=1", "hang=1"};
      for (int i = 0; i < 12; i++) {
        String id = "eofh".charAt(i % 4) + Integer.toString(i); // sendError, ok, fail, hang
        waiting.add(id);
        answers.add(
            MishandledRequestsIT.send(
                client.newRequest(
                    container.baseUri().resolve("work?id=" + id + "&" + asks[i % asks.length]))));
      }
      Map<Integer, Integer> statuses = new TreeMap<>();
      for (CompletableFuture<Answer> a : answers) {
        statuses.merge(a.get(30, TimeUnit.SECONDS).status(), 1, Integer::sum);
      }
      Totals.of(engine).assertAtRest(engine, answers.size());
      Thread.sleep(200); // a second completion would come after the first
      Map<String, Integer> completions = new TreeMap<>();
      ListeningFilter.COMPLETIONS.forEach((id, n) -> completions.put(id, n.get()));
      System.out.printf(
          "[%s] clients saw %s; the application's listener saw %s%n", kind, statuses, completions);
      assertThat(completions.keySet()).as("requests the filter held").containsAll(waiting);
      assertThat(completions)
          .as("onComplete calls per request")
          .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(expectedCompletions(kind, id)));
    }
  }

  /**
   * Where Tomcat's second completion comes from: the same suspension and dispatch, without the
   * filter. Should a Tomcat release fix it, this test says so, and the first one's Tomcat case
   * must then expect one completion.
   */
  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void tomcatAloneCompletesADispatchThatSendsAnErrorTwice(ContainerKind kind) throws Exception {
    Path dir =
        new ExplodedWebApp()
            .withApplicationFilter("listening", ListeningFilter.class)
            .withServlet("self", SelfDispatchServlet.class, Map.of(), "/self")
            .writeUnder(apps, kind + "-self");
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      for (int i = 0; i < 3; i++) {
        client.newRequest(container.baseUri().resolve("self?sendError=1&id=e" + i)).send();
        client.newRequest(container.baseUri().resolve("self?id=o" + i)).send();
        client.newRequest(container.baseUri().resolve("self?hang=1&id=h" + i)).send();
      }
      Thread.sleep(200);
      Map<String, Integer> completions = new TreeMap<>();
      ListeningFilter.COMPLETIONS.forEach((id, n) -> completions.put(id, n.get()));
      System.out.printf("[%s] without the filter, the listener saw %s%n", kind, completions);
      assertThat(completions)
          .as("onComplete calls per request")
          .containsOnlyKeys("e0", "e1", "e2", "o0", "o1", "o2", "h0", "h1", "h2")
          .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(expectedCompletions(kind, id)));
    }
  }

  /**
   * How often each container completes a request that was suspended and then dispatched, for a
   * listener of the suspension that registers itself again when the application goes async:
   * once, but Tomcat twice after {@code sendError} ({@code e}) and Jetty twice when the
   * application goes async again and its timeout ends it ({@code h}).
   */
  private static int expectedCompletions(ContainerKind kind, String id) {
    if (id.startsWith("e")) {
      return kind == ContainerKind.TOMCAT ? 2 : 1;
    }
    if (id.startsWith("h")) {
      return kind == ContainerKind.JETTY ? 2 : 1;
    }
    return 1;
  }
}
