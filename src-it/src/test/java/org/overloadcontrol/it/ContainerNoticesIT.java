package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.ContextEchoServlet;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LogCapture;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.jetty.OverloadHandler;

/**
 * Issue 18, items 5 to 7: what the filter has to say reaches the container's own log of the web
 * application ({@code ServletContext.log}: Tomcat's per-host log, Jetty's context logger), read
 * back here from the embedded containers' log output.
 *
 * <ul>
 *   <li>a configuration error that stops the start, with the key, the value and the layer;</li>
 *   <li>wait queues ({@code queue.permits}) with a filter or servlet that is not
 *       async-supported, named, once at start;</li>
 *   <li>the Jetty {@code OverloadHandler} in front of a WAR that also declares the filter: the
 *       filter says once, on the first request, that the handler has taken over.</li>
 * </ul>
 */
class ContainerNoticesIT {

  private static Path apps;

  @BeforeAll
  static void createAppsDirectory() throws Exception {
    apps = Files.createTempDirectory("container-notices-it");
  }

  @AfterAll
  static void deleteApps() throws Exception {
    if (apps != null) {
      try (var paths = Files.walk(apps)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static ExplodedWebApp app(Map<String, String> filterParams) {
    return new ExplodedWebApp()
        .withOverloadFilter(filterParams)
        .withServlet("plain", ContextEchoServlet.Plain.class, Map.of(), "/plain")
        .withServlet("checkout", ContextEchoServlet.Checkout.class, Map.of(), "/checkout");
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aConfigurationErrorIsInTheContainersLog(ContainerKind kind) throws Exception {
    Path dir =
        app(Map.of("endpoints.checkout.target", "-5ms")).writeUnder(apps, "error-" + kind.name());
    try (LogCapture log = new LogCapture()) {
      assertThatThrownBy(() -> kind.start(Deployment.of(dir)).close())
          .isInstanceOf(IllegalStateException.class);
      assertThat(log.containerContextLog())
          .as("%s's log of the web application", kind)
          .anyMatch(
              line ->
                  line.contains(
                      "key 'endpoints.checkout.target' = '-5ms' (from"
                          + " web.xml init-param of filter 'overload'): a target must be a positive"
                          + " duration"));
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  @SuppressWarnings("try") // the container only has to run while its log is read
  void queuesWithoutAsyncSupportAreNamedOnceAtStart(ContainerKind kind) throws Exception {
    Path dir =
        app(Map.of("queue.permits", "2"))
            .withoutAsyncSupport("overload", "plain")
            .writeUnder(apps, "blocking-" + kind.name());
    try (LogCapture log = new LogCapture();
        WebContainer container = kind.start(Deployment.of(dir))) {
      List<String> notices =
          log.containerContextLog().stream()
              .filter(line -> line.contains("are not async-supported"))
              .toList();
      assertThat(notices).as("%s's log of the web application", kind).hasSize(1);
      assertThat(notices.get(0))
          .contains(
              "queue.permits is set, but filter 'overload',"
                  + " servlet 'plain' are not async-supported")
          .contains("queue.nonAsync: block")
          .doesNotContain("'checkout'");
    }
  }

  @Test
  void theJettyHandlerInFrontHasTakenOverAndTheFilterSaysSoOnce() throws Exception {
    Path dir = app(Map.of()).writeUnder(apps, "handler-in-front");
    Server server = new Server(new QueuedThreadPool(16, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    server.addConnector(connector);
    WebAppContext webApp = new WebAppContext();
    webApp.setContextPath("/");
    webApp.setWar(dir.toString());
    webApp.setTempDirectory(Files.createDirectories(dir.resolve("tmp")).toFile());
    webApp.setThrowUnavailableOnStartupException(true);
    OverloadHandler overload =
        OverloadHandler.builder()
            .put("endpoints.plain.target", "500ms")
            .put("endpoints.plain.paths", "/plain")
            .put("controller.bucketDepth", "10")
            .build();
    overload.setHandler(webApp);
    server.setHandler(overload);
    try (LogCapture log = new LogCapture()) {
      server.start();
      HttpClient http = HttpClient.newHttpClient();
      URI plain =
          URI.create("http://" + Deployment.HOST + ":" + connector.getLocalPort() + "/plain");
      assertThat(log.containerContextLog())
          .as("nothing to say before a request")
          .noneMatch(line -> line.contains("passes every request through"));
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(plain).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
      }
      List<String> notices =
          log.containerContextLog().stream()
              .filter(line -> line.contains("passes every request through"))
              .toList();
      assertThat(notices).as("Jetty's log of the web application").hasSize(1);
      assertThat(notices.get(0)).contains("filter 'overload'").contains("OverloadHandler");
    } finally {
      server.stop();
    }
  }
}
