package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * The single-class controller of Welsh &amp; Culler 2003 §3.2, driven through a simulated
 * service on a fake clock.
 */
class ResponseTimeControllerTest {

  private static final long MS = 1_000_000L;
  private static final ClassDefinition ONLY =
      new ClassDefinition("only", 0, RequestKind.BROWSING, 1);

  /** The paper's exact controller, for the tests that check its arithmetic round by round. */
  private static final ControllerParameters PAPER =
      ControllerParameters.custom().paperExact().build();

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();

  private EndpointAdmissionController controller(long targetNanos, ControllerParameters p) {
    return new EndpointAdmissionController(
        "route",
        c -> new ClassSettings(targetNanos, p),
        new AdmissionListener() {
          @Override
          public void onRound(ControllerRound round) {
            rounds.add(round);
          }
        });
  }

  @Test
  void loadStepCutsTheRateExponentiallyAndBringsP90BackUnderTarget() {
    EndpointAdmissionController controller = controller(100 * MS, PAPER);
    ClassController c = controller.forClass(ONLY, ticker.read());
    // Capacity 100/s, 10 ms at no load: the target of 100 ms holds up to ~90/s admitted.
    SimulatedService service = new SimulatedService(ticker, controller, 100, 10 * MS);
    ClassController[] classes = {c};

    service.run(classes, new double[] {50}, 30);
    int stepIndex = rounds.size();
    service.run(classes, new double[] {400}, 120);

    List<ControllerRound> afterStep = rounds.subList(stepIndex, rounds.size());
    // Right after the step, the rate falls by adj_d = 1.2 in each round while over target.
    List<ControllerRound> firstDecreases =
        afterStep.stream()
            .dropWhile(r -> r.action() != Action.DECREASE)
            .takeWhile(r -> r.action() == Action.DECREASE)
            .collect(Collectors.toList());
    assertThat(firstDecreases).hasSizeGreaterThanOrEqualTo(3);
    for (ControllerRound r : firstDecreases) {
      assertThat(r.rateAfter()).isCloseTo(r.rateBefore() / 1.2, within(1e-9));
    }
    // Multiplicative: the rate after k cuts is the rate before them over 1.2^k.
    ControllerRound first = firstDecreases.get(0);
    ControllerRound last = firstDecreases.get(firstDecreases.size() - 1);
    assertThat(last.rateAfter())
        .isCloseTo(first.rateBefore() / Math.pow(1.2, firstDecreases.size()), within(1e-6));

    // The estimate comes back under the target and stays near it over the last minute.
    List<ControllerRound> lastMinute =
        afterStep.stream()
            .filter(r -> r.nowNanos() > ticker.read() - 60_000 * MS)
            .collect(Collectors.toList());
    assertThat(lastMinute).anyMatch(r -> r.estimateNanos() <= 100 * MS);
    double meanEstimate =
        lastMinute.stream().mapToLong(ControllerRound::estimateNanos).average().orElseThrow();
    assertThat(meanEstimate).isLessThan(150.0 * MS);
    // And it admits close to what the service can take at the target, shedding the rest.
    long[] totals =
        service
            .admittedPerSecond
            .subList(service.admittedPerSecond.size() - 60, service.admittedPerSecond.size())
            .stream()
            .reduce(new long[2], (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
    double admittedPerSecond = totals[1] / 60.0;
    assertThat(admittedPerSecond).isBetween(60.0, 95.0);
    assertThat(totals[0] / 60.0).isCloseTo(400.0, within(1.0));
  }

  @Test
  void belowTargetTheRateClimbsInProportionToTheError() {
    EndpointAdmissionController controller = controller(1000 * MS, ControllerParameters.defaults());
    ClassController c = controller.forClass(ONLY, ticker.read());
    SimulatedService service = new SimulatedService(ticker, controller, 1000, 10 * MS);
    service.run(new ClassController[] {c}, new double[] {200}, 20);

    List<ControllerRound> increases =
        rounds.stream().filter(r -> r.action() == Action.INCREASE).collect(Collectors.toList());
    assertThat(increases).hasSizeGreaterThan(10);
    for (ControllerRound r : increases) {
      // rate += −(err − c_i)·adj_i with c_i = −0.1, adj_i = 2.0
      double expected = r.rateBefore() + (-(r.error() - (-0.1))) * 2.0;
      assertThat(r.rateAfter()).isCloseTo(expected, within(1e-9));
      assertThat(r.error()).isLessThan(-0.5);
    }
    // Far below target (err near −1), each round adds about 1.8 requests per second.
    ControllerRound firstIncrease = increases.get(0);
    assertThat(firstIncrease.rateAfter() - firstIncrease.rateBefore()).isCloseTo(1.8, within(0.05));
  }

  @Test
  void withinTheDeadBandTheRateHolds() {
    ControllerParameters p = ControllerParameters.custom().initialRate(50).build();
    EndpointAdmissionController controller = controller(100 * MS, p);
    ClassController c = controller.forClass(ONLY, ticker.read());
    for (int i = 0; i < 100; i++) {
      ticker.advance(Duration.ofMillis(1));
      controller.record(c, 80 * MS, ticker.read()); // err = −0.2: inside [err_i, err_d]
    }
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).action()).isEqualTo(Action.HOLD);
    assertThat(c.rate()).isEqualTo(50.0);
  }

  @Test
  void smoothsTheP90WithAlpha() {
    EndpointAdmissionController controller = controller(1000 * MS, ControllerParameters.defaults());
    ClassController c = controller.forClass(ONLY, ticker.read());
    feed(controller, c, 100, 100 * MS); // first round: cur = samp
    // The samples are kept to two significant digits (within 1 %).
    assertThat(c.p90().estimateNanos()).isCloseTo(100 * MS, within(MS));
    feed(controller, c, 100, 200 * MS); // cur = 0.7·100 + 0.3·200 = 130 ms
    assertThat(c.p90().estimateNanos()).isCloseTo(130 * MS, within(13 * MS / 10));
  }

  @Test
  void usesTheNinetiethPercentileOfTheRound() {
    EndpointAdmissionController controller = controller(1000 * MS, ControllerParameters.defaults());
    ClassController c = controller.forClass(ONLY, ticker.read());
    for (int i = 1; i <= 100; i++) {
      controller.record(c, i * MS, ticker.read());
    }
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).sampleP90Nanos()).isCloseTo(90 * MS, within(MS / 5));
  }

  @Test
  void runsAfterTheTimeoutWithFewSamples() {
    EndpointAdmissionController controller = controller(100 * MS, ControllerParameters.defaults());
    ClassController c = controller.forClass(ONLY, ticker.read());
    controller.record(c, 500 * MS, ticker.read());
    assertThat(rounds).isEmpty();
    ticker.advance(Duration.ofMillis(999));
    assertThat(controller.tryAdmit(c, ticker.read())).isTrue();
    assertThat(rounds).isEmpty();
    ticker.advance(Duration.ofMillis(1));
    controller.tryAdmit(c, ticker.read());
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).sampleCount()).isEqualTo(1);
    assertThat(rounds.get(0).action()).isEqualTo(Action.DECREASE);
    // The arrival at 1 s, a millisecond after the one at 999 ms, found no token; but a
    // timeout with no samples and a refusal holds a class whose last estimate missed (its
    // requests are still queued): only one admitted at under a request a round doubles.
    ticker.advance(Duration.ofSeconds(1));
    assertThat(controller.tryAdmit(c, ticker.read())).isTrue();
    assertThat(rounds.get(1).action()).isEqualTo(Action.NO_SAMPLES);
    assertThat(rounds.get(1).rateAfter()).isEqualTo(rounds.get(1).rateBefore());
    // Another timeout with no samples and no refusal changes nothing.
    ticker.advance(Duration.ofSeconds(1));
    controller.tryAdmit(c, ticker.read());
    assertThat(rounds.get(2).action()).isEqualTo(Action.NO_SAMPLES);
    assertThat(rounds.get(2).rateAfter()).isEqualTo(rounds.get(2).rateBefore());
  }

  @Test
  void rateStaysWithinItsBounds() {
    ControllerParameters p = ControllerParameters.from(PAPER).rateMin(1).rateMax(120).build();
    EndpointAdmissionController controller = controller(100 * MS, p);
    ClassController c = controller.forClass(ONLY, ticker.read());
    for (int round = 0; round < 50; round++) {
      feed(controller, c, 100, 10_000 * MS);
    }
    assertThat(c.rate()).isEqualTo(1.0);
    for (int round = 0; round < 200; round++) {
      feed(controller, c, 100, MS);
    }
    assertThat(c.rate()).isEqualTo(120.0);
  }

  @Test
  void withoutATargetItMeasuresButNeverRejects() {
    EndpointAdmissionController controller = controller(0, ControllerParameters.defaults());
    ClassController c = controller.forClass(ONLY, ticker.read());
    int admitted = 0;
    for (int i = 0; i < 10_000; i++) {
      if (controller.tryAdmit(c, ticker.read())) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(10_000);
    // Nothing reacts to an uncontrolled class's rounds: they come once per timeout (1 s), not
    // every nreq samples.
    feed(controller, c, 999, 5_000 * MS);
    assertThat(rounds).isEmpty();
    feed(controller, c, 1, 5_000 * MS);
    assertThat(rounds).extracting(ControllerRound::action).containsExactly(Action.MEASURED_ONLY);
    assertThat(rounds.get(0).sampleCount()).isEqualTo(1000);
    assertThat(c.p90().estimateNanos()).isCloseTo(5_000 * MS, within(50 * MS));
  }

  @Test
  void disabledAdmissionAdmitsButKeepsMeasuring() {
    EndpointAdmissionController controller =
        controller(100 * MS, ControllerParameters.custom().rateMin(0.05).initialRate(0.05).build());
    ClassController c = controller.forClass(ONLY, ticker.read());
    assertThat(controller.tryAdmit(c, ticker.read())).isTrue();
    assertThat(controller.tryAdmit(c, ticker.read())).isFalse();
    controller.setAdmissionEnabled(false);
    assertThat(controller.tryAdmit(c, ticker.read())).isTrue();
    feed(controller, c, 100, 50 * MS);
    assertThat(rounds).hasSize(1);
  }

  private void feed(
      EndpointAdmissionController controller, ClassController c, int n, long responseTime) {
    for (int i = 0; i < n; i++) {
      ticker.advance(Duration.ofMillis(1));
      controller.record(c, responseTime, ticker.read());
    }
  }

  @SuppressWarnings("unused")
  private static Map<Action, Long> histogram(List<ControllerRound> rounds) {
    return rounds.stream()
        .collect(Collectors.groupingBy(ControllerRound::action, Collectors.counting()));
  }
}
