package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Micrometer binding over HTTP: the application's Micrometer registry (its Prometheus
 * registry here) scraped from an embedded Jetty shows the engine's counts as counters
 * ({@code _total}) and its gauges, with the names docs/observability.md lists.
 */
class MicrometerScrapeTest {

  private final EngineDriver driver = new EngineDriver();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private Observability observability;
  private Server server;
  private URI metrics;

  /** The endpoint a Micrometer application exposes: the registry's scrape. */
  private final class ScrapeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      resp.setContentType("text/plain; version=0.0.4; charset=utf-8");
      resp.getWriter().write(registry.scrape());
    }
  }

  @BeforeEach
  void start() throws Exception {
    observability =
        Observability.builder(driver.engine)
            .registry(registry)
            .stateListener(StateChange.Listener.NONE)
            .build();
    server = new Server();
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new ScrapeServlet()), "/metrics");
    server.setHandler(context);
    server.start();
    metrics = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/metrics");
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
    observability.close();
  }

  private void traffic() {
    driver.traffic();
    observability.tick();
  }

  private String scrape() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  @Test
  void countsAreCountersAndTheRestGauges() throws Exception {
    traffic();
    assertThat(
            registry
                .find("overload.arrivals")
                .tags("endpoint", "search", "class", "search")
                .meter())
        .isInstanceOf(FunctionCounter.class);
    String text = scrape();
    assertThat(text)
        .contains("# TYPE overload_arrivals_total counter")
        .contains("overload_arrivals_total{class=\"search\",endpoint=\"search\"} 3.0")
        .contains("# TYPE overload_outcomes_total counter")
        .contains(
            "overload_outcomes_total{class=\"search\",endpoint=\"search\","
                + "outcome=\"rejected\"} 1.0")
        .contains("# TYPE overload_endpoint_state gauge")
        .contains("overload_endpoint_state{endpoint=\"search\",state=\"shedding\"} 1.0")
        .contains("overload_endpoint_state{endpoint=\"search\",state=\"healthy\"} 0.0")
        .contains("overload_endpoint_refused_share{endpoint=\"search\"} 0.5")
        .contains("# TYPE overload_queue_lifo gauge")
        .contains("overload_queue_lifo 1.0");

    driver.arrive("search"); // counters read the engine at each scrape
    assertThat(scrape())
        .contains("overload_arrivals_total{class=\"search\",endpoint=\"search\"}" + " 4.0");
  }

  @Test
  void meterNamesFollowMicrometersDottedConvention() {
    traffic();
    assertThat(registry.getMeters()).isNotEmpty();
    assertThat(registry.getMeters())
        .allSatisfy(
            m ->
                assertThat(m.getId().getName())
                    .as("a Micrometer name")
                    .startsWith("overload.")
                    .doesNotContain("_"));
  }

  @Test
  void everyScrapedFamilyIsDocumented() throws Exception {
    traffic();
    String doc = Files.readString(Path.of("..", "docs", "observability.md"));
    Set<String> families = new LinkedHashSet<>();
    for (String line : scrape().split("\n")) {
      if (line.startsWith("# TYPE ")) {
        families.add(line.split(" ")[2]);
      }
    }
    assertThat(families).isNotEmpty();
    for (String family : families) {
      assertThat(doc).as("docs/observability.md documents %s", family).contains("`" + family + "`");
    }
  }

  @Test
  void closeRemovesEveryMeter() throws Exception {
    traffic();
    observability.close();
    assertThat(registry.getMeters()).isEmpty();
    assertThat(scrape()).doesNotContain("overload_");
  }
}
