package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * The dead time after a rate cut, on a fake clock: {@code AdmissionControlIT}'s server (4
 * permits × 50 ms behind a FIFO queue, 80 requests/s) offered twice its capacity with a p90
 * target of 200 ms. The paper's controller (Welsh &amp; Culler 2003 §3.2) keeps cutting while
 * the requests queued before its first cut finish late, and settles far below capacity;
 * judging on fresh samples ({@link ControllerParameters#judgeOnFreshSamples()}) stops near it.
 */
class DeadTimeTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = QueueingServer.SECOND;
  private static final long TARGET = 200 * MS;
  private static final double CAPACITY = 80;
  private static final ClassDefinition ONLY =
      new ClassDefinition("only", 0, RequestKind.BROWSING, 1);
  private static final ClassDefinition HIGH =
      new ClassDefinition("high", 2, RequestKind.BROWSING, 1);
  private static final ClassDefinition LOW = new ClassDefinition("low", 1, RequestKind.BROWSING, 1);

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();

  /** The published parameters but a 10 s timeout, so that rounds here come by count. */
  private static final ControllerParameters SLOW_TIMEOUT =
      ControllerParameters.custom().timeout(Duration.ofSeconds(10)).build();

  private EndpointAdmissionController controller(ControllerParameters p) {
    return new EndpointAdmissionController(
        "work",
        x -> new ClassSettings(TARGET, p),
        new AdmissionListener() {
          @Override
          public void onRound(ControllerRound round) {
            rounds.add(round);
          }
        });
  }

  /** As in AdmissionControlIT: initial rate 120/s (above capacity), bucket depth 4. */
  private QueueingServer stepToTwiceCapacity(boolean judgeOnFreshSamples) {
    ControllerParameters p =
        ControllerParameters.custom()
            .initialRate(120)
            .bucketDepth(4)
            .judgeOnFreshSamples(judgeOnFreshSamples)
            .build();
    EndpointAdmissionController controller = controller(p);
    ClassController c = controller.forClass(ONLY, ticker.read());
    QueueingServer server = new QueueingServer(ticker, controller, c, 4, 50 * MS, 42);
    server.offer(2 * CAPACITY, 60);
    return server;
  }

  @Test
  void thePapersControllerCutsFarBelowCapacityAfterALoadStep() {
    long start = ticker.read();
    QueueingServer server = stepToTwiceCapacity(false);
    long from = start + 10 * SECOND;
    long to = start + 40 * SECOND;
    double admitted = server.admittedPerSecond(from, to);
    // Documents the problem: ~38/s of 80/s, climbing back by adj_i per round.
    assertThat(admitted)
        .as("admitted/s, 10-40 s: %s", server.perSecond(from, to))
        .isLessThan(0.55 * CAPACITY);
    // It cut nine times in a row, though the first four cuts alone (120 → 58/s) were enough.
    List<ControllerRound> cuts =
        rounds.stream().takeWhile(r -> r.action() == Action.DECREASE).toList();
    assertThat(cuts).hasSizeGreaterThanOrEqualTo(8);
    assertThat(cuts.get(cuts.size() - 1).rateAfter()).isLessThan(0.35 * CAPACITY);
    // The last cuts came on fresh samples far under the target: the smoothed estimate still
    // carried the backlog that the first cuts had caused to drain.
    assertThat(cuts.get(cuts.size() - 1).sampleP90Nanos()).isLessThan(TARGET / 2);
  }

  @Test
  void judgingOnFreshSamplesSettlesNearCapacityAndHoldsTheTarget() {
    long start = ticker.read();
    QueueingServer server = stepToTwiceCapacity(true);
    long from = start + 10 * SECOND;
    long to = start + 60 * SECOND;
    double admitted = server.admittedPerSecond(from, to);
    assertThat(admitted)
        .as("admitted/s, 10-60 s: %s", server.perSecond(from, to))
        .isBetween(0.85 * CAPACITY, CAPACITY);
    assertThat(server.p90ResponseNanos(from, to))
        .as("p90 of admitted requests, 10-60 s")
        .isLessThanOrEqualTo(TARGET * 3 / 2);
    // No cut went below what the server completed in its round divided by adj_d.
    assertThat(rounds)
        .filteredOn(r -> r.action() == Action.DECREASE)
        .allSatisfy(r -> assertThat(r.rateAfter()).isGreaterThan(CAPACITY / 1.2 - 5));
  }

  @Test
  void samplesFromBeforeACutDoNotJudgeTheNextRoundAndTheEstimateRestarts() {
    EndpointAdmissionController controller = controller(SLOW_TIMEOUT);
    ClassController c = controller.forClass(ONLY, ticker.read());
    feed(controller, c, 100, 400 * MS); // a round: p90 400 ms, twice the target: cut
    assertThat(rounds).extracting(ControllerRound::action).containsExactly(Action.DECREASE);
    long cutAt = ticker.read();
    double rateAfterCut = c.rate();
    // Requests admitted before the cut keep finishing late; fresh ones are fast.
    ticker.advance(Duration.ofMillis(20));
    for (int i = 0; i < 100; i++) {
      ticker.advance(Duration.ofMillis(1));
      long now = ticker.read();
      controller.record(c, 900 * MS, cutAt - MS, now);
      controller.record(c, 20 * MS, now - 20 * MS, now);
    }
    ControllerRound next = rounds.get(1);
    assertThat(next.sampleCount()).as("only the fresh samples").isEqualTo(100);
    assertThat(next.sampleP90Nanos()).isLessThanOrEqualTo(21 * MS);
    // Restarted: 20 ms, not 0.7·400 + 0.3·20 = 286 ms (which would have cut again).
    assertThat(next.estimateNanos()).isLessThanOrEqualTo(21 * MS);
    assertThat(next.action()).isEqualTo(Action.INCREASE);
    assertThat(c.rate()).isGreaterThan(rateAfterCut);
  }

  @Test
  void theSameSamplesInThePapersModeCutAgain() {
    EndpointAdmissionController controller =
        controller(ControllerParameters.from(SLOW_TIMEOUT).paperExact().build());
    ClassController c = controller.forClass(ONLY, ticker.read());
    feed(controller, c, 100, 400 * MS);
    long cutAt = ticker.read();
    ticker.advance(Duration.ofMillis(20));
    for (int i = 0; i < 50; i++) {
      ticker.advance(Duration.ofMillis(1));
      long now = ticker.read();
      controller.record(c, 900 * MS, cutAt - MS, now);
      controller.record(c, 20 * MS, now - 20 * MS, now);
    }
    assertThat(rounds)
        .extracting(ControllerRound::action)
        .containsExactly(Action.DECREASE, Action.DECREASE);
    assertThat(rounds.get(1).sampleCount()).isEqualTo(100);
  }

  @Test
  void roundsWithOnlyStaleSamplesHoldThenTheCutIsForgotten() {
    EndpointAdmissionController controller = controller(SLOW_TIMEOUT);
    ClassController c = controller.forClass(ONLY, ticker.read());
    feed(controller, c, 100, 400 * MS);
    long cutAt = ticker.read();
    double rate = c.rate();
    // A long backlog from before the cut: only stale samples for a while.
    for (int round = 1; round <= EndpointAdmissionController.MAX_STALE_ROUNDS; round++) {
      ticker.advance(Duration.ofMillis(9999));
      controller.record(c, 3000 * MS, cutAt - MS, ticker.read());
      ticker.advance(Duration.ofMillis(1));
      controller.tryAdmit(c, ticker.read());
      assertThat(rounds.get(round).action()).isEqualTo(Action.STALE_ONLY);
      assertThat(c.rate()).isEqualTo(rate);
    }
    // The cut is forgotten: the backlog's samples judge again, and it is still far over.
    ticker.advance(Duration.ofMillis(9999));
    controller.record(c, 3000 * MS, cutAt - MS, ticker.read());
    ticker.advance(Duration.ofMillis(1));
    controller.tryAdmit(c, ticker.read());
    ControllerRound last = rounds.get(rounds.size() - 1);
    assertThat(last.action()).isEqualTo(Action.DECREASE);
    assertThat(last.sampleCount()).isEqualTo(1);
    assertThat(c.rate()).isLessThan(rate);
  }

  @Test
  void aLowerClassCutByAHigherOneIsNotJudgedOnItsPreCutSamples() {
    EndpointAdmissionController controller = controller(SLOW_TIMEOUT);
    ClassController high = controller.forClass(HIGH, ticker.read());
    ClassController low = controller.forClass(LOW, ticker.read());
    feed(controller, high, 100, 400 * MS); // high misses: low is cut by adjlo_d
    assertThat(rounds).extracting(ControllerRound::action).containsExactly(Action.DECREASE_LOWER);
    long cutAt = ticker.read();
    double lowRate = low.rate();
    assertThat(lowRate).isEqualTo(100.0 / 10);
    // Low's requests from before the cut finish late: they must not cut it again.
    ticker.advance(Duration.ofMillis(20));
    for (int i = 0; i < 50; i++) {
      ticker.advance(Duration.ofMillis(1));
      long now = ticker.read();
      controller.record(low, 900 * MS, cutAt - MS, now);
      controller.record(low, 20 * MS, now - 20 * MS, now);
    }
    ticker.advance(Duration.ofSeconds(10));
    controller.tryAdmit(low, ticker.read());
    ControllerRound lowRound = rounds.get(rounds.size() - 1);
    assertThat(lowRound.requestClass()).isEqualTo("low");
    assertThat(lowRound.sampleCount()).isEqualTo(50);
    // Under target on fresh samples, and held (not raised) by the higher class's flag.
    assertThat(lowRound.action()).isEqualTo(Action.INCREASE_SUPPRESSED);
    assertThat(low.rate()).isEqualTo(lowRate);
  }

  /** n samples 20 ms apart (50/s, below the initial rate of 100/s). */
  private void feed(
      EndpointAdmissionController controller, ClassController c, int n, long responseTime) {
    for (int i = 0; i < n; i++) {
      ticker.advance(Duration.ofMillis(20));
      controller.record(c, responseTime, ticker.read());
    }
  }
}
