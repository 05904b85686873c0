package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.serverlog.ServedRequest;
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The experiments' server-side request log in both containers: every request is recorded
 * once, from its arrival at the container to its completion, refusals by a filter registered
 * ahead of the application's own included, and a response completed after its user gave up is
 * counted as such.
 */
class ServerRequestLogIT {

  @TempDir Path apps;

  /** Refuses {@code /refused} with 503 before the application sees it. */
  static final ServletContainerInitializer REFUSER =
      (classes, ctx) -> {
        Filter refuse =
            (req, res, chain) -> {
              if (((HttpServletRequest) req).getRequestURI().endsWith("/refused")) {
                ((HttpServletResponse) res).sendError(503);
              } else {
                chain.doFilter(req, res);
              }
            };
        ctx.addFilter("refuser", refuse)
            .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      };

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void recordsEveryRequestOnceWithWhetherItsUserHadLeft(ContainerKind kind) throws Exception {
    Path dir =
        new ExplodedWebApp()
            .withServlet(
                "fast", SleepServlet.class, Map.of("serviceTimeMillis", "1"), "/fast", "/refused")
            .withServlet("slow", SleepServlet.class, Map.of("serviceTimeMillis", "400"), "/slow")
            .writeUnder(apps, kind.name());
    ServerRequestLog log = new ServerRequestLog();
    ContainerHooks hooks = ContainerHooks.NONE.withRequestLog(log).withInitializer(REFUSER);
    HttpClient http = HttpClient.newHttpClient();
    try (WebContainer container =
        kind.start(Deployment.of(dir).withContextPath("/app").withHooks(hooks))) {
      URI base = container.baseUri();
      long before = System.nanoTime();
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("fast")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("refused")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(503);
      long givesUp = System.nanoTime() + Duration.ofMillis(100).toNanos();
      try {
        http.send(
            HttpRequest.newBuilder(base.resolve("slow"))
                .timeout(Duration.ofMillis(100))
                .header(ServerRequestLog.GIVES_UP_HEADER, Long.toString(givesUp))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        throw new AssertionError("the slow request should have timed out");
      } catch (HttpTimeoutException expected) {
        // The user left; the server goes on working for nobody.
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (log.entries().size() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      List<ServedRequest> entries = log.entries();
      System.out.printf("[%s] %s%n", kind, entries);

      assertThat(entries).hasSize(3);
      assertThat(entries)
          .allSatisfy(
              e -> {
                assertThat(e.arrivalNanos()).isGreaterThanOrEqualTo(before);
                assertThat(e.completionNanos()).isGreaterThanOrEqualTo(e.arrivalNanos());
              });
      ServedRequest fast = find(entries, "/app/fast");
      assertThat(fast.status()).isEqualTo(200);
      assertThat(fast.userLeft()).isFalse();
      assertThat(find(entries, "/app/refused").refused()).isTrue();
      ServedRequest slow = find(entries, "/app/slow");
      assertThat(slow.responseNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(400).toNanos());
      assertThat(slow.givesUpNanos()).isEqualTo(givesUp);
      assertThat(slow.userLeft()).isTrue();
    }
  }

  private static ServedRequest find(List<ServedRequest> entries, String path) {
    return entries.stream()
        .filter(e -> e.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no entry for " + path + " in " + entries));
  }
}
