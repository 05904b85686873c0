package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * Haboob's queue threshold (Welsh et al. 2001, §5.1.4) chosen by the admission key, for every
 * endpoint or for a group, as the per-endpoint {@code queue.endpoints.<e>.admission} chooses it,
 * and without any {@code queue.} key.
 */
class QueueThresholdChoiceTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private OverloadEngine engine;

  private void start(Map<String, String> keys) {
    Map<String, String> config = new HashMap<>(keys);
    config.put("endpoints.search.target", "100ms");
    config.put("queue.endpoints.search.threshold.initial", "4");
    engine =
        OverloadEngine.builder(OverloadConfig.of(config))
            .ticker(ticker)
            .scheduler(scheduler)
            .build();
  }

  /** Arrivals at {@code endpoint}: the admitted ones, the refused ones answered. */
  private List<RequestTag> arrive(String endpoint, int n, List<RejectionReason> reasons) {
    List<RequestTag> admitted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RequestTag tag = engine.tag(engine.routes().route(endpoint, NONE), ticker.read());
      if (engine.arrive(tag) == Decision.ADMIT) {
        admitted.add(tag);
      } else {
        reasons.add(tag.reason());
        engine.settle(tag, Outcome.REJECTED, 0);
      }
    }
    return admitted;
  }

  private void theThresholdAdmitsAndMoves() {
    List<RejectionReason> reasons = new ArrayList<>();
    List<RequestTag> admitted = arrive("search", 6, reasons);
    assertThat(admitted).hasSize(4);
    assertThat(reasons)
        .containsExactly(RejectionReason.QUEUE_THRESHOLD, RejectionReason.QUEUE_THRESHOLD);
    assertThat(engine.endpoint("search").concurrencyGroup()).isNull();
    ticker.advance(Duration.ofMillis(500));
    for (RequestTag t : admitted) {
      engine.settle(t, Outcome.COMPLETED, 0); // 500 ms over a 100 ms target
    }
    ticker.advance(Duration.ofMillis(600));
    scheduler.runDue();
    assertThat(engine.endpoint("search").queueThreshold().threshold()).isEqualTo(2);
  }

  @Test
  void theAdmissionKeyChoosesItForEveryEndpoint() {
    start(Map.of("admission.controller", "queue-threshold"));
    theThresholdAdmitsAndMoves();
  }

  @Test
  void aGroupsKeyChoosesItForItsEndpoints() {
    start(
        Map.of(
            "admission.groups.db.endpoints", "search",
            "admission.groups.db.controller", "queue-threshold",
            "endpoints.browse.target", "100ms"));
    theThresholdAdmitsAndMoves();
    // The group's choice is the group's: the others keep the default concurrency limit.
    assertThat(engine.endpoint("browse").queueThreshold()).isNull();
    assertThat(engine.endpoint("browse").concurrencyGroup()).isNotNull();
  }

  @Test
  void thePerEndpointKeyStillChoosesIt() {
    start(Map.of("queue.endpoints.search.admission", "queue-threshold"));
    theThresholdAdmitsAndMoves();
  }

  @Test
  void anEndpointWithoutATargetKeepsTheRateControllerAndAdmitsEverything() {
    start(Map.of("admission.controller", "queue-threshold"));
    List<RejectionReason> reasons = new ArrayList<>();
    assertThat(arrive("plain", 50, reasons)).hasSize(50);
    assertThat(engine.endpoint("plain").queueThreshold()).isNull();
  }
}
