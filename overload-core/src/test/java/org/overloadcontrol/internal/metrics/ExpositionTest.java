package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The status JSON parses and the metric families (as a Prometheus client names them) carry the
 * names docs/observability.md lists,
 * and report what the engine did.
 */
class ExpositionTest {

  private static final Path DOC = Path.of("..", "docs", "observability.md");

  private final EngineDriver driver = new EngineDriver();
  private final RecordedMetrics recorded = new RecordedMetrics();
  private final Observability observability =
      Observability.builder(driver.engine)
          .recorder(recorded)
          .stateListener(StateChange.Listener.NONE)
          .build();

  @org.junit.jupiter.api.AfterEach
  void close() {
    observability.close();
  }

  private void traffic() {
    driver.traffic();
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
    assertThat(search.get("state").asText()).isEqualTo("shedding");
    assertThat(search.get("refusedShare").asDouble()).isEqualTo(0.5);
    assertThat(root.get("states").get("shedding").asInt()).isEqualTo(1);
    assertThat(root.get("states").get("limiting").asInt()).isEqualTo(1);
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
      assertThat(doc)
          .as("docs/observability.md documents status field %s", f)
          .contains("`" + f + "`");
    }
  }

  static void collectFields(JsonNode node, Set<String> out) {
    if (node.isObject()) {
      node.fields()
          .forEachRemaining(
              e -> {
                out.add(e.getKey());
                collectFields(e.getValue(), out);
              });
    } else if (node.isArray()) {
      node.forEach(n -> collectFields(n, out));
    }
  }

  @Test
  void familiesAreLabelledAndCountsAreCounts() {
    traffic();
    Map<String, List<Map<String, String>>> families = recorded.families();

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
            Map.of("endpoint", "search", "state", "healthy", "__value__", "0.0"),
            // The confirm waited for the one permit the search's waiter took.
            Map.of("endpoint", "confirm", "state", "limiting", "__value__", "1.0"));
    assertThat(families.get("overload_endpoint_refused_share"))
        .contains(Map.of("endpoint", "search", "__value__", "0.5"));
    assertThat(families.get("overload_endpoint_quality"))
        .contains(Map.of("endpoint", "search", "__value__", "1.0"));
    assertThat(families.get("overload_queue_length"))
        .contains(Map.of("class", "search", "__value__", "0.0"));
    assertThat(families.get("overload_queue_lifo")).containsExactly(Map.of("__value__", "1.0"));
    assertThat(families.get("overload_p90_target_seconds"))
        .contains(Map.of("endpoint", "search", "class", "search", "__value__", "1.0"));
    assertThat(families.get("overload_p90_estimate_seconds"))
        .contains(Map.of("endpoint", "confirm", "class", "confirm", "__value__", "NaN"));
  }

  @Test
  void everyFamilyIsDocumented() throws IOException {
    traffic();
    String doc = Files.readString(DOC);
    for (String family : recorded.families().keySet()) {
      assertThat(doc).as("docs/observability.md documents %s", family).contains("`" + family + "`");
    }
  }

  @Test
  void thresholdPolicyAddsItsGauge() {
    EngineDriver d =
        new EngineDriver(
            Map.of(
                "queue.endpoints.search.admission",
                "queue-threshold",
                "endpoints.search.target",
                "1s"));
    RecordedMetrics r = new RecordedMetrics();
    Observability o =
        Observability.builder(d.engine)
            .recorder(r)
            .stateListener(StateChange.Listener.NONE)
            .build();
    d.arrive("search");
    assertThat(o.scrape()).as("no binding writes text here").isEmpty();
    assertThat(r.families()).containsKey("overload_endpoint_queue_threshold");
    o.close();
    assertThat(r.closed()).isTrue();
  }
}
