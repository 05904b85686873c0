package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Stripes;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.measure.P90Estimator;

/**
 * Adaptive sampling of response times in {@link P90Estimator}, as the rate controller's rounds
 * run it: above {@link P90Estimator#TARGET_SAMPLES_PER_SECOND} completions a second a class
 * records a
 * random sample of them, and what the rounds compute from the samples (the p90, the
 * completions per second of the throughput floor) stays right. The response times are seeded;
 * which completions are recorded is drawn by {@code ThreadLocalRandom}, so the bounds below
 * are several standard deviations of that draw wide.
 */
class ResponseTimeSamplingTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000_000_000L;
  private static final ClassDefinition ONLY =
      new ClassDefinition("only", 0, RequestKind.BROWSING, 1);

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();

  /** {@link P90Estimator#completionsPerSecond} as each round computed it. */
  private final List<Double> roundCompletionsPerSecond = new ArrayList<>();

  private final Random responseTimes = new Random(42);
  private ClassController c;

  private EndpointAdmissionController controller(long targetNanos, ControllerParameters p) {
    EndpointAdmissionController controller =
        new EndpointAdmissionController(
            "route",
            rc -> new ClassSettings(targetNanos, p),
            new AdmissionListener() {
              @Override
              public void onRound(ControllerRound round) {
                rounds.add(round);
                roundCompletionsPerSecond.add(c.p90().completionsPerSecond());
              }
            });
    c = controller.forClass(ONLY, ticker.read());
    return controller;
  }

  /**
   * Completes {@code perSecond} requests a second, evenly spaced, for {@code seconds}, each
   * with a response time uniform in [minMs, maxMs); returns how many completed.
   */
  private long complete(
      EndpointAdmissionController controller,
      int perSecond,
      double seconds,
      long minMs,
      long maxMs) {
    long gapNanos = SECOND / perSecond;
    long count = Math.round(perSecond * seconds);
    for (long i = 0; i < count; i++) {
      ticker.advanceNanos(gapNanos);
      long responseNanos = minMs * MS + (long) (responseTimes.nextDouble() * (maxMs - minMs) * MS);
      controller.record(c, responseNanos, ticker.read());
    }
    return count;
  }

  private List<ControllerRound> roundsAfter(long nanos) {
    return rounds.stream().filter(r -> r.nowNanos() > nanos).toList();
  }

  @Test
  void atOneHundredThousandPerSecondAboutTwoThousandSamplesASecondGiveTheTrueP90() {
    // Measured only: rounds come once per timeout (1 s), so each sees a second of samples.
    EndpointAdmissionController controller = controller(0, ControllerParameters.defaults());
    long completed = complete(controller, 100_000, 4.5, 1, 21);

    // The first second was recorded in full; it set p = 2000 / 100,000.
    assertThat(rounds.get(0).sampleCount()).isEqualTo(100_000);
    List<ControllerRound> sampled = rounds.subList(1, rounds.size());
    assertThat(sampled).hasSize(3);
    long recorded = 0;
    for (ControllerRound r : sampled) {
      // Binomial(100,000, p) with p itself from the last round's count: 2,000 ± 62.
      assertThat(r.sampleCount()).isBetween(1_700L, 2_300L);
      // The true p90 of uniform [1, 21) ms is 19 ms. Of 2,000 samples the p90 has a standard
      // error of about 0.7 % (0.13 ms), and the histogram reports the top of its ~1 % bucket:
      // 5 % is that bias plus five standard errors (3 % failed about one run in five).
      assertThat((double) r.sampleP90Nanos()).isCloseTo(19.0 * MS, within(0.05 * 19 * MS));
      assertThat(r.action()).isEqualTo(Action.MEASURED_ONLY);
      recorded += r.sampleCount();
    }
    // Would fail without sampling: the recorders saw a fiftieth of the completions.
    assertThat(recorded).isLessThan((completed - 100_000) / 20);
    assertThat(c.p90().samplingProbability()).isCloseTo(0.02, within(0.002));
    assertThat((double) c.p90().estimateNanos()).isCloseTo(19.0 * MS, within(0.05 * 19 * MS));
    assertThat(roundCompletionsPerSecond.subList(1, 4))
        .allSatisfy(perSecond -> assertThat(perSecond).isCloseTo(100_000.0, within(10_000.0)));
  }

  @Test
  void theDrawFromAnArrivalsNumberSamplesWithTheSameProbability() {
    EndpointAdmissionController controller = controller(0, ControllerParameters.defaults());
    complete(controller, 100_000, 2.5, 1, 21);
    double p = c.p90().samplingProbability();
    assertThat(p).isBetween(0.012, 0.03);

    // Arrivals numbered per stripe, as the engine counts them.
    int arrivals = 400_000;
    long drawn = 0;
    long drawnOfEven = 0;
    for (int i = 0; i < arrivals; i++) {
      if (c.p90().drawSample(i / Stripes.COUNT, i % Stripes.COUNT)) {
        drawn++;
        drawnOfEven += 1 - (i / Stripes.COUNT) % 2;
      }
    }
    // Binomial(400,000, p): within five standard deviations (about 90 at p = 0.02); and no
    // pattern in consecutive numbers (even ones drawn as often as odd ones).
    assertThat((double) drawn).isCloseTo(arrivals * p, within(5 * Math.sqrt(arrivals * p)));
    assertThat((double) drawnOfEven).isCloseTo(drawn / 2.0, within(5 * Math.sqrt(drawn / 4.0)));
  }

  @Test
  void theThroughputFloorScalesSampledCountsBackToCompletions() {
    // Controlled, always over target: every round cuts, but never below completions / adj_d,
    // which at 100,000 completions a second is 83,333/s. Counted on the sampled counts alone
    // the floor would be 2,000 / 1.2 and the rate would fall to it.
    ControllerParameters p =
        ControllerParameters.custom().rateMax(1_000_000).initialRate(100_000).build();
    EndpointAdmissionController controller = controller(1 * MS, p);
    complete(controller, 100_000, 3, 5, 15);

    List<ControllerRound> late = roundsAfter(SECOND);
    List<Double> lateRates =
        roundCompletionsPerSecond.subList(rounds.size() - late.size(), rounds.size());
    // Rounds still come every nreq recorded samples: about every 50 ms, not every 10.
    assertThat(late.size()).isBetween(25, 80);
    assertThat(c.p90().samplingProbability()).isBetween(0.012, 0.03);
    assertThat(late).allSatisfy(r -> assertThat(r.sampleCount()).isLessThan(200));
    // Each round's rate rests on the time ~100 samples took (±10 %, as with rounds of 100
    // unsampled Poisson completions at 10,000/s); their mean is within a few percent.
    double mean = lateRates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    assertThat(mean).isCloseTo(100_000.0, within(6_000.0));
    long withinTwentyPercent =
        lateRates.stream().filter(perSecond -> Math.abs(perSecond - 100_000.0) <= 20_000.0).count();
    assertThat(withinTwentyPercent).isGreaterThanOrEqualTo(late.size() * 8L / 10);
    assertThat(late).anyMatch(r -> r.action() == Action.HOLD_AT_THROUGHPUT);
    assertThat(c.rate()).isBetween(50_000.0, 100_000.0);
  }

  @Test
  void samplingStopsWhenTheRateFalls() {
    EndpointAdmissionController controller = controller(0, ControllerParameters.defaults());
    complete(controller, 100_000, 2.5, 1, 21);
    assertThat(c.p90().samplingProbability()).isLessThan(0.03);

    int before = rounds.size();
    complete(controller, 500, 4.5, 1, 21);

    // The round that spans the drop still sees mostly the old rate and lowers p only to
    // about 0.04; the next, a whole second at 500/s, sees about twenty samples: enough to
    // tell that the rate is low, and p is 1 again.
    assertThat(c.p90().samplingProbability()).isEqualTo(1.0);
    List<ControllerRound> after = rounds.subList(before, rounds.size());
    assertThat(after).hasSize(5);
    assertThat(after.get(1).sampleCount()).isLessThan(60L);
    // From then on every completion is recorded again: 500 in each one-second round.
    assertThat(after.subList(2, after.size()))
        .allSatisfy(r -> assertThat(r.sampleCount()).isBetween(499L, 501L));
  }

  @Test
  void belowTheTargetEveryCompletionIsRecorded() {
    ControllerParameters p = ControllerParameters.custom().rateMax(100_000).build();
    EndpointAdmissionController controller = controller(100 * MS, p);
    long completed = complete(controller, 1_900, 5, 1, 21);

    assertThat(c.p90().samplingProbability()).isEqualTo(1.0);
    long recorded = rounds.stream().mapToLong(ControllerRound::sampleCount).sum();
    // Up to nreq + SUM_EVERY samples may wait for the next round.
    assertThat(recorded).isBetween(completed - 110, completed);
    assertThat(roundsAfter(SECOND))
        .allSatisfy(
            r ->
                assertThat(roundCompletionsPerSecond.get(rounds.indexOf(r)))
                    .isCloseTo(1_900.0, within(100.0)));
  }
}
