package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueRejection;

/**
 * Bandwidth shares and the virtual queue in the recorded metrics, the status JSON and the
 * text, from fake feature states: present with their values when handed to the builder, absent
 * (null in JSON) when not, removed on close, and documented.
 */
class FeatureExpositionTest {

  private static final Path DOC = Path.of("..", "docs", "observability.md");

  /** A bandwidth state the test sets directly. */
  static final class FakeBandwidth implements BandwidthView {
    final List<GroupSnapshot> groups = new ArrayList<>();
    double total = 100_000;
    double maxMeasured = 120_000;

    @Override
    public List<GroupSnapshot> groups() {
      return List.copyOf(groups);
    }

    @Override
    public double totalBytesPerSecond() {
      return total;
    }

    @Override
    public double maxMeasuredBytesPerSecond() {
      return maxMeasured;
    }
  }

  /** A virtual-queue state the test sets directly. */
  static final class FakeQueue implements VirtualQueueView {
    long passed = 40;
    long tokenAdmitted = 9;
    long toldToWait = 12;
    final Map<VirtualQueueRejection, Long> refusals = new EnumMap<>(VirtualQueueRejection.class);
    int waitSeconds = 7;
    double capacity = 140;
    double share = 35;
    long unansweredClaims = 3;

    @Override
    public double share() {
      return share;
    }

    @Override
    public long unansweredClaims() {
      return unansweredClaims;
    }

    @Override
    public long passCount() {
      return passed;
    }

    @Override
    public long tokenAdmittedCount() {
      return tokenAdmitted;
    }

    @Override
    public long waitCount() {
      return toldToWait;
    }

    @Override
    public long refusalCount(VirtualQueueRejection reason) {
      return refusals.getOrDefault(reason, 0L);
    }

    @Override
    public int currentWaitSeconds() {
      return waitSeconds;
    }

    @Override
    public double capacity() {
      return capacity;
    }
  }

  private final EngineDriver driver = new EngineDriver();
  private final FakeBandwidth bandwidth = new FakeBandwidth();
  private final FakeQueue queue = new FakeQueue();
  private final RecordedMetrics recorded = new RecordedMetrics();
  private Observability observability;

  private Observability start() {
    bandwidth.groups.add(new GroupSnapshot("gold", 40_000, 38_500.5, true, 2, 310, 4));
    bandwidth.groups.add(new GroupSnapshot("bronze", 10_000, 0, false, 0, 0, 0));
    queue.refusals.put(VirtualQueueRejection.QUEUE_FULL, 5L);
    queue.refusals.put(VirtualQueueRejection.REPLAYED, 1L);
    observability =
        Observability.builder(driver.engine)
            .recorder(recorded)
            .stateListener(StateChange.Listener.NONE)
            .bandwidth(bandwidth)
            .virtualQueue(queue)
            .build();
    return observability;
  }

  @AfterEach
  void close() {
    if (observability != null) {
      observability.close();
    }
  }

  private Number gauge(String name) {
    return recorded.value(name);
  }

  @Test
  void gaugesReadTheFeaturesLive() {
    start();
    assertThat(gauge("overload.bandwidth.group.gold.allocated_bytes_per_second").doubleValue())
        .isEqualTo(40_000);
    assertThat(gauge("overload.bandwidth.group.gold.average_bytes_per_second").doubleValue())
        .isEqualTo(38_500.5);
    assertThat(gauge("overload.bandwidth.group.gold.active").intValue()).isEqualTo(1);
    assertThat(gauge("overload.bandwidth.group.gold.delayed_now").intValue()).isEqualTo(2);
    assertThat(gauge("overload.bandwidth.group.gold.admitted").longValue()).isEqualTo(310);
    assertThat(gauge("overload.bandwidth.group.gold.refused").longValue()).isEqualTo(4);
    assertThat(gauge("overload.bandwidth.group.bronze.active").intValue()).isZero();
    assertThat(gauge("overload.bandwidth.total_bytes_per_second").doubleValue()).isEqualTo(100_000);
    assertThat(gauge("overload.bandwidth.max_measured_bytes_per_second").doubleValue())
        .isEqualTo(120_000);
    assertThat(gauge("overload.virtual_queue.passed").longValue()).isEqualTo(40);
    assertThat(gauge("overload.virtual_queue.token_admitted").longValue()).isEqualTo(9);
    assertThat(gauge("overload.virtual_queue.told_to_wait").longValue()).isEqualTo(12);
    assertThat(gauge("overload.virtual_queue.refusals.queue_full").longValue()).isEqualTo(5);
    assertThat(gauge("overload.virtual_queue.refusals.forged").longValue()).isZero();
    assertThat(gauge("overload.virtual_queue.current_wait_seconds").intValue()).isEqualTo(7);
    assertThat(gauge("overload.virtual_queue.capacity_subunits_per_second").doubleValue())
        .isEqualTo(140);
    assertThat(gauge("overload.virtual_queue.share_subunits_per_second").doubleValue())
        .isEqualTo(35);
    assertThat(gauge("overload.virtual_queue.unanswered_claims").longValue()).isEqualTo(3);

    // The gauges read the state, not a copy taken at registration.
    bandwidth.groups.set(0, new GroupSnapshot("gold", 40_000, 12_000, false, 0, 311, 6));
    queue.passed = 41;
    queue.refusals.put(VirtualQueueRejection.FORGED, 3L);
    assertThat(gauge("overload.bandwidth.group.gold.refused").longValue()).isEqualTo(6);
    assertThat(gauge("overload.bandwidth.group.gold.active").intValue()).isZero();
    assertThat(gauge("overload.virtual_queue.passed").longValue()).isEqualTo(41);
    assertThat(gauge("overload.virtual_queue.refusals.forged").longValue()).isEqualTo(3);
  }

  @Test
  void aGroupTheViewNamesLaterIsRegisteredAtTheNextTick() {
    start();
    bandwidth.groups.add(new GroupSnapshot("silver", 20_000, 5, true, 0, 1, 0));
    assertThat(recorded.names()).doesNotContain("overload.bandwidth.group.silver.admitted");
    observability.tick();
    assertThat(gauge("overload.bandwidth.group.silver.admitted").longValue()).isEqualTo(1);
  }

  @Test
  void closeClosesTheRecorder() {
    start().close();
    assertThat(recorded.closed()).isTrue();
  }

  @Test
  void nothingIsRegisteredOrWrittenForFeaturesThatAreOff() throws IOException {
    observability =
        Observability.builder(driver.engine)
            .recorder(recorded)
            .stateListener(StateChange.Listener.NONE)
            .build();
    assertThat(recorded.names())
        .noneMatch(n -> n.startsWith("overload.bandwidth") || n.startsWith("overload.virtual"));
    JsonNode root = new ObjectMapper().readTree(observability.statusJson());
    assertThat(root.has("bandwidth")).isTrue();
    assertThat(root.get("bandwidth").isNull()).isTrue();
    assertThat(root.get("virtualQueue").isNull()).isTrue();
  }

  @Test
  void metricsDisabledStillShowsTheFeaturesInTheStatus() throws IOException {
    EngineDriver off = new EngineDriver(Map.of("metrics.enabled", "false"));
    bandwidth.groups.add(new GroupSnapshot("gold", 40_000, 1, true, 0, 3, 0));
    observability =
        Observability.builder(off.engine)
            .recorder(recorded)
            .stateListener(StateChange.Listener.NONE)
            .bandwidth(bandwidth)
            .virtualQueue(queue)
            .build();
    assertThat(recorded.names()).isEmpty();
    JsonNode root = new ObjectMapper().readTree(observability.statusJson());
    assertThat(root.get("bandwidth").get("groups").get(0).get("admitted").asLong()).isEqualTo(3);
    assertThat(root.get("virtualQueue").get("passed").asLong()).isEqualTo(40);
  }

  @Test
  void statusJsonCarriesBothSections() throws IOException {
    start();
    JsonNode root = new ObjectMapper().readTree(observability.statusJson());
    assertThat(root.get("endpoints").isArray()).as("existing fields unchanged").isTrue();
    JsonNode b = root.get("bandwidth");
    assertThat(b.get("totalBytesPerSecond").asDouble()).isEqualTo(100_000);
    assertThat(b.get("maxMeasuredBytesPerSecond").asDouble()).isEqualTo(120_000);
    JsonNode gold = b.get("groups").get(0);
    assertThat(gold.get("name").asText()).isEqualTo("gold");
    assertThat(gold.get("allocatedBytesPerSecond").asDouble()).isEqualTo(40_000);
    assertThat(gold.get("averageBytesPerSecond").asDouble()).isEqualTo(38_500.5);
    assertThat(gold.get("active").asBoolean()).isTrue();
    assertThat(gold.get("delayedNow").asInt()).isEqualTo(2);
    assertThat(gold.get("admitted").asLong()).isEqualTo(310);
    assertThat(gold.get("refused").asLong()).isEqualTo(4);
    assertThat(b.get("groups").get(1).get("name").asText()).isEqualTo("bronze");

    JsonNode q = root.get("virtualQueue");
    assertThat(q.get("passed").asLong()).isEqualTo(40);
    assertThat(q.get("tokenAdmitted").asLong()).isEqualTo(9);
    assertThat(q.get("toldToWait").asLong()).isEqualTo(12);
    assertThat(q.get("full").asBoolean()).isFalse();
    assertThat(q.get("currentWaitSeconds").asInt()).isEqualTo(7);
    assertThat(q.get("capacitySubunitsPerSecond").asDouble()).isEqualTo(140);
    assertThat(q.get("shareSubunitsPerSecond").asDouble()).isEqualTo(35);
    assertThat(q.get("unansweredClaims").asLong()).isEqualTo(3);
    assertThat(q.get("refusals").get("queue_full").asLong()).isEqualTo(5);
    assertThat(q.get("refusals").get("replayed").asLong()).isEqualTo(1);
    assertThat(q.get("refusals").size()).isEqualTo(VirtualQueueRejection.values().length);
  }

  @Test
  void aFullQueueAndATrainingCapacityAreWrittenAsDocumented() throws IOException {
    start();
    queue.waitSeconds = -1;
    queue.capacity = Double.POSITIVE_INFINITY;
    JsonNode q = new ObjectMapper().readTree(observability.statusJson()).get("virtualQueue");
    assertThat(q.get("full").asBoolean()).isTrue();
    assertThat(q.get("currentWaitSeconds").isNull()).isTrue();
    assertThat(q.get("capacitySubunitsPerSecond").isNull()).as("+Inf while training").isTrue();
    assertThat(gauge("overload.virtual_queue.current_wait_seconds").intValue()).isEqualTo(-1);
  }

  @Test
  void featureFamiliesAreLabelledAndTheirCountsAreCounts() {
    start();
    Map<String, List<Map<String, String>>> families = recorded.families();
    assertThat(families.get("overload_bandwidth_allocated_bytes_per_second"))
        .containsExactlyInAnyOrder(
            Map.of("group", "gold", "__value__", "40000.0"),
            Map.of("group", "bronze", "__value__", "10000.0"));
    assertThat(families.get("overload_bandwidth_refused_total"))
        .contains(Map.of("group", "gold", "__value__", "4.0"));
    assertThat(families.get("overload_bandwidth_active"))
        .contains(Map.of("group", "gold", "__value__", "1.0"));
    assertThat(families.get("overload_bandwidth_max_measured_bytes_per_second"))
        .containsExactly(Map.of("__value__", "120000.0"));
    assertThat(families.get("overload_virtual_queue_refusals_total"))
        .hasSize(VirtualQueueRejection.values().length)
        .contains(
            Map.of("reason", "queue_full", "__value__", "5.0"),
            Map.of("reason", "foreign_address", "__value__", "0.0"));
    assertThat(families.get("overload_virtual_queue_passed_total"))
        .containsExactly(Map.of("__value__", "40.0"));
    assertThat(families.get("overload_virtual_queue_current_wait_seconds"))
        .containsExactly(Map.of("__value__", "7.0"));
  }

  @Test
  void everyFeatureFieldAndFamilyIsDocumented() throws IOException {
    start();
    String doc = Files.readString(DOC);
    Set<String> fields = new HashSet<>();
    ExpositionTest.collectFields(new ObjectMapper().readTree(observability.statusJson()), fields);
    fields.removeAll(Set.of("search", "confirm", "default")); // queue names, not fields
    for (String f : fields) {
      assertThat(doc)
          .as("docs/observability.md documents status field %s", f)
          .contains("`" + f + "`");
    }
    for (String family : recorded.families().keySet()) {
      assertThat(doc).as("docs/observability.md documents %s", family).contains("`" + family + "`");
    }
  }
}
