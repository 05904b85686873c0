package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.metrics.Scrape;

/**
 * The Prometheus binding over HTTP: the client's own exporter servlet, on an embedded Jetty,
 * serves the engine's counters (as {@code _total}) and gauges with the names
 * docs/observability.md lists; {@code /overload/metrics} writes the same text.
 */
class PrometheusScrapeTest {

  private static final Path DOC = Path.of("..", "docs", "observability.md");

  /** One sample line of the text format: name, optional labels, value. */
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (-?[0-9.eE+-]+|NaN|\\+Inf|-Inf)");

  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  private final EngineDriver driver = new EngineDriver();
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private Observability observability;
  private Server server;
  private URI metrics;

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
    context.addServlet(new ServletHolder(new PrometheusMetricsServlet(registry)), "/metrics");
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
  void countsAreCountersAndTheRestGaugesWithTheirLabels() throws Exception {
    traffic();
    String text = scrape();
    assertThat(text)
        .contains("# TYPE overload_arrivals_total counter")
        .contains("# TYPE overload_outcomes_total counter")
        .contains("# TYPE overload_endpoint_quality gauge")
        .contains("# TYPE overload_queue_lifo gauge");
    Map<String, List<Map<String, String>>> families = parse(text);
    assertThat(families.get("overload_arrivals_total"))
        .contains(
            Map.of("endpoint", "search", "class", "search", "__value__", "3.0"),
            Map.of("endpoint", "confirm", "class", "confirm", "__value__", "1.0"));
    assertThat(families.get("overload_outcomes_total"))
        .contains(
            Map.of(
                "endpoint", "search", "class", "search", "outcome", "rejected", "__value__", "1.0"),
            Map.of(
                "endpoint",
                "confirm",
                "class",
                "confirm",
                "outcome",
                "failed",
                "__value__",
                "1.0"));
    assertThat(families.get("overload_endpoint_state"))
        .contains(
            Map.of("endpoint", "search", "state", "shedding", "__value__", "1.0"),
            Map.of("endpoint", "search", "state", "limiting", "__value__", "0.0"));
    assertThat(families.get("overload_endpoint_refused_share"))
        .contains(Map.of("endpoint", "search", "__value__", "0.5"));
    assertThat(families.get("overload_queue_lifo")).containsExactly(Map.of("__value__", "1.0"));
    assertThat(families.get("overload_p90_estimate_seconds"))
        .contains(Map.of("endpoint", "confirm", "class", "confirm", "__value__", "NaN"));

    // Counters read the engine at each scrape.
    driver.arrive("confirm");
    assertThat(parse(scrape()).get("overload_arrivals_total"))
        .contains(Map.of("endpoint", "confirm", "class", "confirm", "__value__", "2.0"));
  }

  @Test
  void everyScrapedFamilyIsDocumented() throws Exception {
    traffic();
    String doc = Files.readString(DOC);
    for (String family : parse(scrape()).keySet()) {
      assertThat(doc).as("docs/observability.md documents %s", family).contains("`" + family + "`");
    }
  }

  @Test
  void overloadMetricsWritesTheSameFamilies() throws Exception {
    traffic();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Scrape s = observability.scrape().orElseThrow();
    s.write(out);
    assertThat(s.contentType()).startsWith("text/plain; version=0.0.4");
    assertThat(parse(out.toString(StandardCharsets.UTF_8)).keySet())
        .isEqualTo(parse(scrape()).keySet());
  }

  @Test
  void closeUnregistersEveryFamily() throws Exception {
    traffic();
    observability.close();
    assertThat(parse(scrape())).isEmpty();
  }

  /** Parses the text format strictly enough to catch what a Prometheus server would refuse. */
  static Map<String, List<Map<String, String>>> parse(String text) throws IOException {
    Map<String, List<Map<String, String>>> families = new LinkedHashMap<>();
    Set<String> typed = new HashSet<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("# TYPE ")) {
        String name = line.split(" ")[2];
        assertThat(typed.add(name)).as("one TYPE line for %s", name).isTrue();
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      assertThat(m.matches()).as("sample line: %s", line).isTrue();
      Map<String, String> labels = new HashMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        int end = 0;
        while (l.find() && l.start() == end) {
          labels.put(l.group(1), l.group(2));
          end = l.end();
        }
        assertThat(end).as("labels of %s", line).isEqualTo(m.group(3).length());
      }
      labels.put("__value__", m.group(4));
      families.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(labels);
    }
    return families;
  }
}
