package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.LogCapture;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;
import org.overloadcontrol.servlet.OverloadFilter;
import org.slf4j.LoggerFactory;

/**
 * Issue 21, logging that cannot vanish: a WAR that carries the filter and {@code slf4j-api} in
 * {@code WEB-INF/lib} but no SLF4J provider (SLF4J then drops every line) still shows, in the
 * container's own log of the web application, the notice that says so and the "entered
 * overload" line. The containers hide their SLF4J from web applications as standalone ones do
 * ({@code WebAppParentLoader}), so the filter's copy of SLF4J finds no provider.
 */
class NoSlf4jProviderIT {

  @TempDir static Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theEnteredOverloadLineReachesTheContainersLog(ContainerKind kind) throws Exception {
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
                    "metrics.period",
                    "100ms",
                    "metrics.overloadQuietPeriod",
                    "2s"))
            .withServlet("work", SleepServlet.class, Map.of("serviceTimeMillis", "300"), "/work")
            .writeUnder(apps, "war-" + kind.name());
    Path lib = Files.createDirectories(dir.resolve("WEB-INF/lib"));
    // What a WAR with only the filter carries: the filter, the core and their two libraries.
    for (Class<?> inWar :
        List.of(
            OverloadFilter.class,
            OverloadEngine.class,
            Caffeine.class,
            Histogram.class,
            LoggerFactory.class)) {
      Path jar = Path.of(inWar.getProtectionDomain().getCodeSource().getLocation().toURI());
      Files.copy(jar, lib.resolve(jar.getFileName()));
    }
    try (LogCapture log = new LogCapture();
        WebContainer container = kind.start(Deployment.of(dir))) {
      HttpClient http = HttpClient.newHttpClient();
      URI work = container.baseUri().resolve("work");
      List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        answers.add(
            http.sendAsync(
                HttpRequest.newBuilder(work).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.discarding()));
      }
      List<Integer> statuses = answers.stream().map(a -> a.join().statusCode()).toList();
      assertThat(statuses)
          .as("one runs, one waits, the rest are refused")
          .contains(200, kind.refusalStatus());
      await("the shedding line in the web application's log")
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  log.containerContextLog().stream()
                      .anyMatch(line -> line.contains("is now shedding")));
      List<String> contextLog = log.containerContextLog();
      assertThat(contextLog)
          .as("%s's log of the web application", kind)
          .anyMatch(line -> line.contains("no SLF4J provider is bound"))
          .anyMatch(line -> line.contains("endpoint '") && line.contains("is now shedding"));
    }
  }
}
