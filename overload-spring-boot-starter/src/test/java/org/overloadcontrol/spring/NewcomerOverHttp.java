package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.overloadcontrol.spring.newcomer.NewcomerApplication;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The newcomer's application ({@link NewcomerApplication}: web, actuator, Prometheus and the
 * starter, one {@code @GetMapping} method) started as README's Spring Boot section says, with no
 * {@code overload.*} setting, over HTTP on 127.0.0.1: it starts, sheds when offered three times
 * its capacity, and reports through {@code /actuator/overload}, {@code /actuator/health},
 * {@code /actuator/prometheus}, {@code /actuator/metrics} and the dashboard at
 * {@code /overload/}. One subclass per Spring Boot major, in the module whose class path is that
 * major's; this class uses only the API they share.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class NewcomerOverHttp {

  private static final Duration LOAD = Duration.ofSeconds(4);
  private static final int OFFERED_PER_SECOND = 3 * NewcomerApplication.CAPACITY_PER_SECOND;

  private final ExecutorService clientThreads = Executors.newFixedThreadPool(4);
  private final HttpClient client =
      HttpClient.newBuilder().executor(clientThreads).connectTimeout(Duration.ofSeconds(5)).build();
  private ConfigurableApplicationContext app;
  private URI base;
  private Map<Integer, Integer> outcomes;
  private int offered;

  @BeforeAll
  void startAndOfferThreeTimesCapacity() throws Exception {
    app =
        SpringApplication.run(
            NewcomerApplication.class,
            "--server.port=0",
            "--server.address=127.0.0.1",
            "--spring.main.banner-mode=off",
            "--management.endpoints.web.exposure.include=health,overload,prometheus,metrics",
            "--management.endpoint.health.show-details=always");
    base = URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port"));
    outcomes = offerOpenLoad();
    // The measurement, for the record: statuses of the offered requests.
    System.out.printf(
        "newcomer on Spring Boot %s: %d requests offered at %d/s (capacity %d/s): %s%n",
        org.springframework.boot.SpringBootVersion.getVersion(),
        offered,
        OFFERED_PER_SECOND,
        NewcomerApplication.CAPACITY_PER_SECOND,
        outcomes);
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
    clientThreads.shutdownNow();
  }

  /**
   * Sends {@link #OFFERED_PER_SECOND} requests a second for {@link #LOAD}, each on its own
   * schedule whatever the answers (an open load, as users arrive), and counts the answers by
   * status; a request that got none within its timeout counts as -1.
   */
  private Map<Integer, Integer> offerOpenLoad() throws Exception {
    List<CompletableFuture<Integer>> answers = new ArrayList<>();
    long intervalNanos = TimeUnit.SECONDS.toNanos(1) / OFFERED_PER_SECOND;
    long start = System.nanoTime();
    offered = (int) (LOAD.toNanos() / intervalNanos);
    for (int i = 0; i < offered; i++) {
      long due = start + i * intervalNanos;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait); // paces the load generator, not an assertion
      }
      answers.add(
          client
              .sendAsync(
                  HttpRequest.newBuilder(base.resolve("/work"))
                      .timeout(Duration.ofSeconds(20))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .thenApply(HttpResponse::statusCode)
              .exceptionally(e -> -1));
    }
    Map<Integer, Integer> byStatus = new TreeMap<>();
    for (CompletableFuture<Integer> a : answers) {
      byStatus.merge(a.get(30, TimeUnit.SECONDS), 1, Integer::sum);
    }
    return byStatus;
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void atThreeTimesCapacityItShedsAndEveryRequestGetsOneAnswer() {
    // Every request answered, each either served or refused: none lost or timed out. Refused
    // with 429 on Tomcat, Spring Boot's server, which closes the connection after a 503.
    assertThat(outcomes.keySet()).as("statuses %s", outcomes).containsOnly(200, 429);
    assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(offered);
    int refused = outcomes.getOrDefault(429, 0);
    int served = outcomes.getOrDefault(200, 0);
    // Two thirds is what must go at 3x; a third is the least that shows it sheds.
    assertThat(refused)
        .as("refused of %d offered: %s", offered, outcomes)
        .isGreaterThan(offered / 3);
    // It keeps serving: at least a quarter of what the resource can do over the load.
    int capacityOverLoad = (int) (NewcomerApplication.CAPACITY_PER_SECOND * LOAD.toSeconds());
    assertThat(served).as("served: %s", outcomes).isGreaterThan(capacityOverLoad / 4);
  }

  @Test
  void theStatusIsTheOverloadActuatorEndpoint() throws Exception {
    HttpResponse<String> status = get("/actuator/overload");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).startsWith("{").contains("NewcomerApplication#work");
  }

  @Test
  void healthHasTheOverloadContributor() throws Exception {
    HttpResponse<String> health = get("/actuator/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body())
        .contains("\"overload\"")
        .contains("\"states\"")
        .containsPattern(
            "\"NewcomerApplication#work\":\\{[^}]*\"state\":\"(healthy|limiting|degraded|shedding)\"");
  }

  @Test
  void prometheusAndTheMetricsEndpointShowTheMetersInTheApplicationsRegistry() throws Exception {
    HttpResponse<String> prometheus = get("/actuator/prometheus");
    assertThat(prometheus.statusCode()).isEqualTo(200);
    assertThat(prometheus.body())
        .contains("overload_arrivals_total{")
        .contains("endpoint=\"NewcomerApplication#work\"")
        .contains("outcome=\"rejected\"");
    HttpResponse<String> meter = get("/actuator/metrics/overload.arrivals");
    assertThat(meter.statusCode()).as(meter.body()).isEqualTo(200);
    assertThat(meter.body()).contains("\"name\":\"overload.arrivals\"");
  }

  @Test
  void theDashboardAndStatusJsonAreServedAtOverload() throws Exception {
    HttpResponse<String> dashboard = get("/overload/");
    assertThat(dashboard.statusCode()).isEqualTo(200);
    assertThat(dashboard.headers().firstValue("Content-Type").orElse("")).contains("html");
    HttpResponse<String> status = get("/overload/status");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).contains("NewcomerApplication#work");
  }

  private HttpResponse<String> post(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path))
            .POST(HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aPostToTheActuatorReloadsAndABadPropertyIsRefusedWhileTheApplicationRuns() throws Exception {
    Map<String, Object> changed = new java.util.HashMap<>();
    org.springframework.core.env.MutablePropertySources sources =
        app.getEnvironment().getPropertySources();
    sources.addFirst(new org.springframework.core.env.MapPropertySource("reload-test", changed));
    try {
      changed.put("overload.classes.gold.rank", "9");
      HttpResponse<String> applied = post("/actuator/overload");
      assertThat(applied.statusCode()).isEqualTo(200);
      assertThat(applied.body())
          .contains("\"result\":\"applied\"")
          .contains("classes.gold.rank: (unset) → 9");
      changed.put("overload.queue.maxWait", "forever");
      HttpResponse<String> refused = post("/actuator/overload");
      assertThat(refused.body())
          .contains("\"result\":\"refused\"")
          .contains("'queue.maxWait' = 'forever'");
      assertThat(get("/actuator/overload").body()).contains("\"result\":\"refused\"");
      assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
    } finally {
      sources.remove("reload-test");
      post("/actuator/overload");
    }
  }
}
