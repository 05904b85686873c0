package org.overloadcontrol.it.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.servlet.OverloadStatusServlet;

/**
 * The container matrix's one scenario (issue 21): the filter, compiled against Servlet 6.0, in
 * a WAR on Tomcat 10.1 and 11 and Jetty 12.0 (ee10) and 12.1 (ee11). One execution permit and a
 * wait queue of one:
 *
 * <ol>
 *   <li>a servlet that throws is answered 500 through the filter;</li>
 *   <li>a slow request takes the permit, the next one waits in the queue without a thread, and
 *       the third finds the queue full: 503 with {@code Retry-After};</li>
 *   <li>the waiting one runs when the permit comes back: both answered 200;</li>
 *   <li>the status servlet's JSON (never admission-controlled) shows the permit in use and the
 *       waiting request while they are, and nothing in use or waiting at the end.</li>
 * </ol>
 *
 * <p>Each module of the matrix starts its container and hands it here; about 2 s a container.
 */
public final class ContainerMatrixScenario {

  /** How a module of the matrix deploys the scenario's application into its container. */
  @FunctionalInterface
  public interface Starter {
    WebContainer start(Deployment deployment) throws Exception;
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /** Writes the scenario's application under {@code apps}, deploys it, runs the scenario. */
  public void run(Path apps, String name, Starter starter) throws Exception {
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(
                Map.of(
                    "queue.permits",
                    "1",
                    "queue.layout",
                    "single",
                    "queue.singleCapacity",
                    "1",
                    "queue.maxWait",
                    "15s"))
            .withServlet("slow", SleepServlet.class, Map.of("serviceTimeMillis", "1500"), "/slow")
            .withServlet("quick", SleepServlet.class, Map.of("serviceTimeMillis", "0"), "/quick")
            .withServlet("status", OverloadStatusServlet.class, Map.of(), "/overload/*")
            .writeUnder(apps, name);
    try (WebContainer container = starter.start(Deployment.of(dir))) {
      URI base = container.baseUri();
      assertThat(get(base.resolve("quick?fail=1")).statusCode())
          .as("%s: a servlet that throws", container)
          .isEqualTo(500);

      CompletableFuture<HttpResponse<String>> running = send(base.resolve("slow"));
      awaitStatus(base, "\"permitsInUse\":1", container);
      CompletableFuture<HttpResponse<String>> waiting = send(base.resolve("quick"));
      awaitStatus(base, "\"waiting\":1", container);

      HttpResponse<String> refused = get(base.resolve("quick"));
      assertThat(refused.statusCode())
          .as("%s: the queue is full", container)
          .isEqualTo(container.kind().refusalStatus());
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();

      assertThat(running.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).statusCode())
          .as("%s: the slow request", container)
          .isEqualTo(200);
      HttpResponse<String> waited = waiting.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      assertThat(waited.statusCode()).as("%s: the waiting request", container).isEqualTo(200);
      assertThat(waited.body()).isEqualTo("ok");

      awaitStatus(base, "\"permitsInUse\":0", container);
      String status = get(base.resolve("overload/status")).body();
      assertThat(status)
          .as("%s: nothing waiting at the end", container)
          .doesNotContain("\"waiting\":1");
    }
  }

  private void awaitStatus(URI base, String fragment, WebContainer container) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      HttpResponse<String> status = get(base.resolve("overload/status"));
      assertThat(status.statusCode()).as("%s: the status servlet", container).isEqualTo(200);
      last = status.body();
      if (last.contains(fragment)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(container + ": the status never showed " + fragment + ": " + last);
  }

  private HttpResponse<String> get(URI uri) throws Exception {
    return http.send(request(uri), HttpResponse.BodyHandlers.ofString());
  }

  private CompletableFuture<HttpResponse<String>> send(URI uri) {
    return http.sendAsync(request(uri), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(TIMEOUT).build();
  }
}
