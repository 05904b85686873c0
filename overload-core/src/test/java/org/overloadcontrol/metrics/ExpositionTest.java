package org.overloadcontrol.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestTag;

/**
 * The status JSON and the Prometheus text parse, carry the names docs/observability.md lists,
 * and report what the engine did.
 */
class ExpositionTest {

  private static final Path DOC = Path.of("..", "docs", "observability.md");
  /** One sample line of the text format: name, optional labels, value. */
  private static final Pattern SAMPLE = Pattern.compile(
      "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (-?[0-9.eE+-]+|NaN|\\+Inf|-Inf)");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  private final EngineDriver driver = new EngineDriver();
  private final Observability observability = Observability.builder(driver.engine)
      .overloadListener(OverloadEvent.Listener.NONE).build();

  @org.junit.jupiter.api.AfterEach
  void close() {
    observability.close();
  }

  @Test
  void jmxExposesTheGaugesWhileRunning() throws Exception {
    traffic();
    javax.management.MBeanServer server =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    javax.management.ObjectName arrivals = new javax.management.ObjectName(
        "org.overloadcontrol:name=overload.endpoint.search.class.search.arrivals,type=gauges");
    assertThat(server.getAttribute(arrivals, "Value")).isEqualTo(3L);
    observability.close();
    assertThat(server.isRegistered(arrivals)).isFalse();
  }

  private void traffic() {
    RequestTag a = driver.arrive("search");
    driver.arrive("search"); // waits
    driver.arrive("search"); // rejected
    driver.ticker.advance(Duration.ofMillis(1500));
    driver.engine.complete(a, Outcome.COMPLETED, 10);
    RequestTag c = driver.arrive("confirm");
    driver.engine.complete(c, Outcome.FAILED, 0);
    observability.tick();
  }

  @Test
  void statusJsonParsesAndReportsTheEngine() throws IOException {
    traffic();
    JsonNode root = new ObjectMapper().readTree(observability.statusJson());
    assertThat(root.get("tickerSeconds").asDouble()).isEqualTo(driver.ticker.read() / 1e9);
    JsonNode queues = root.get("queues");
    assertThat(queues.get("order").asText()).isEqualTo("LIFO_AT_OVERLOAD");
    // The waiter waited 1.5 s, past the queue-delay signal's enter threshold: browsing is LIFO.
    assertThat(queues.get("lifo").asBoolean()).isTrue();
    assertThat(queues.get("permitsLimit").asInt()).isEqualTo(1);
    assertThat(queues.get("lengths").get("search").asInt()).isZero();
    JsonNode endpoints = root.get("endpoints");
    assertThat(endpoints).hasSize(2);
    JsonNode search = endpoints.get(1);
    assertThat(search.get("name").asText()).isEqualTo("search");
    assertThat(search.get("overloaded").asBoolean()).isTrue();
    assertThat(search.get("quality").asDouble()).isEqualTo(1.0);
    assertThat(search.get("admissionEnabled").asBoolean()).isTrue();
    assertThat(search.get("permitsLimit").isNull()).as("unlimited per endpoint").isTrue();
    JsonNode cls = search.get("classes").get(0);
    assertThat(cls.get("name").asText()).isEqualTo("search");
    assertThat(cls.get("kind").asText()).isEqualTo("BROWSING");
    assertThat(cls.get("arrivals").asLong()).isEqualTo(3);
    assertThat(cls.get("enqueued").asLong()).isEqualTo(1);
    assertThat(cls.get("waitSeconds").asDouble()).isEqualTo(1.5);
    assertThat(cls.get("targetSeconds").asDouble()).isEqualTo(1.0);
    assertThat(cls.get("p90EstimateSeconds").asDouble()).isGreaterThan(1.4);
    assertThat(cls.get("outcomes").get("completed").asLong()).isEqualTo(1);
    assertThat(cls.get("outcomes").get("rejected").asLong()).isEqualTo(1);
    JsonNode confirm = endpoints.get(0).get("classes").get(0);
    assertThat(confirm.get("p90EstimateSeconds").isNull()).as("no round yet").isTrue();
    assertThat(confirm.get("outcomes").get("failed").asLong()).isEqualTo(1);
    assertThat(confirm.get("kind").asText()).isEqualTo("TRANSACTION");
  }

  @Test
  void everyStatusFieldIsDocumented() throws IOException {
    traffic();
    JsonNode root = new ObjectMapper().readTree(observability.statusJson());
    Set<String> fields = new HashSet<>();
    collectFields(root, fields);
    fields.removeAll(Set.of("search", "confirm", "default")); // queue names, not fields
    String doc = Files.readString(DOC);
    for (String f : fields) {
      assertThat(doc).as("docs/observability.md documents status field %s", f)
          .contains("`" + f + "`");
    }
  }

  static void collectFields(JsonNode node, Set<String> out) {
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> {
        out.add(e.getKey());
        collectFields(e.getValue(), out);
      });
    } else if (node.isArray()) {
      node.forEach(n -> collectFields(n, out));
    }
  }

  /** Parses the text format strictly enough to catch what a Prometheus server would refuse. */
  static Map<String, List<Map<String, String>>> parsePrometheus(String text) {
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
      families.computeIfAbsent(m.group(1), k -> new java.util.ArrayList<>()).add(labels);
    }
    return families;
  }

  @Test
  void prometheusTextParsesWithLabelledFamilies() throws IOException {
    traffic();
    observability.registry().counter("application.requests").inc(7);
    StringWriter out = new StringWriter();
    observability.writePrometheus(out);
    Map<String, List<Map<String, String>>> families = parsePrometheus(out.toString());

    assertThat(families.get("overload_arrivals")).contains(
        Map.of("endpoint", "search", "class", "search", "__value__", "3.0"),
        Map.of("endpoint", "confirm", "class", "confirm", "__value__", "1.0"));
    assertThat(families.get("overload_outcomes")).contains(
        Map.of("endpoint", "search", "class", "search", "outcome", "rejected", "__value__", "1.0"),
        Map.of("endpoint", "confirm", "class", "confirm", "outcome", "failed", "__value__", "1.0"));
    assertThat(families.get("overload_endpoint_overloaded"))
        .contains(Map.of("endpoint", "search", "__value__", "1.0"));
    assertThat(families.get("overload_endpoint_quality"))
        .contains(Map.of("endpoint", "search", "__value__", "1.0"));
    assertThat(families.get("overload_queue_length"))
        .contains(Map.of("class", "search", "__value__", "0.0"));
    assertThat(families.get("overload_queue_lifo")).containsExactly(Map.of("__value__", "1.0"));
    assertThat(families.get("overload_p90_target_seconds"))
        .contains(Map.of("endpoint", "search", "class", "search", "__value__", "1.0"));
    assertThat(families.get("overload_p90_estimate_seconds"))
        .contains(Map.of("endpoint", "confirm", "class", "confirm", "__value__", "NaN"));
    assertThat(families).as("the application's own metric, default name")
        .containsKey("application_requests");
  }

  @Test
  void everyPrometheusFamilyIsDocumented() throws IOException {
    traffic();
    StringWriter out = new StringWriter();
    observability.writePrometheus(out);
    String doc = Files.readString(DOC);
    for (String family : parsePrometheus(out.toString()).keySet()) {
      assertThat(doc).as("docs/observability.md documents %s", family)
          .contains("`" + family + "`");
    }
  }

  @Test
  void thresholdPolicyAddsItsGauge() throws IOException {
    EngineDriver d = new EngineDriver(Map.of("queue.endpoints.search.admission",
        "queue-threshold", "endpoints.search.target", "1s"));
    Observability o = Observability.builder(d.engine)
        .overloadListener(OverloadEvent.Listener.NONE).build();
    d.arrive("search");
    StringWriter out = new StringWriter();
    o.writePrometheus(out);
    assertThat(parsePrometheus(out.toString())).containsKey("overload_endpoint_queue_threshold");
    o.close();
    assertThat(o.registry().getNames()).isEmpty();
  }
}
