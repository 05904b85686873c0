package org.overloadcontrol.it.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LogCapture;
import org.overloadcontrol.it.support.ThreadNameServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * A newcomer's first start on a container that runs requests on virtual threads (Java 21+): the
 * filter's start line says so, names how, and names the ceiling that bounds them
 * ({@code admission.maxLimit}'s own 200, not the container's thread count); requests run on
 * virtual threads; and the first request adds no second notice.
 */
public final class VirtualThreadsScenario {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /**
   * @param how the words the start line gives for the container's virtual threads
   */
  public void run(Path apps, String name, ContainerMatrixScenario.Starter starter, String how)
      throws Exception {
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(Map.of("endpoints.thread.target", "100ms"))
            .withServlet("thread", ThreadNameServlet.class, Map.of(), "/thread")
            .writeUnder(apps, name);
    try (LogCapture log = new LogCapture();
        WebContainer container = starter.start(Deployment.of(dir).withVirtualThreads(true))) {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(container.baseUri().resolve("thread"))
                  .timeout(TIMEOUT)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as("%s", container).isEqualTo(200);
      assertThat(answer.body())
          .as("%s: the request's thread", container)
          .startsWith("VirtualThread[");
      List<String> started =
          log.lines().stream()
              .filter(line -> line.contains("overload-control: filter 'overload' started"))
              .toList();
      assertThat(started).as("%s: the start line", container).isNotEmpty();
      assertThat(started.get(0))
          .as("%s: the start line", container)
          .contains("requests run on virtual threads (" + how)
          .contains("the concurrency limit's ceiling is admission.maxLimit (200)");
      assertThat(log.lines())
          .as("%s: no second notice on the first request", container)
          .noneMatch(line -> line.contains("which the container did not say"));
    }
  }

  /** The matrix's own scenario on virtual threads: waits, refusals and the status alike. */
  public static ContainerMatrixScenario.Starter onVirtualThreads(
      ContainerMatrixScenario.Starter starter) {
    return deployment -> starter.start(deployment.withVirtualThreads(true));
  }
}
