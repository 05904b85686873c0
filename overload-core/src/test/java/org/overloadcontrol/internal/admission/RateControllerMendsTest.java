package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.admission.ControllerRound.Action;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * The rate controller's mended defects (issue 16, item 2), with the default parameters (judging
 * on fresh samples) on a fake clock: each test fails on the controller before the mend.
 */
class RateControllerMendsTest {

  private static final long MS = 1_000_000L;
  private static final ClassDefinition GOLD =
      new ClassDefinition("gold", 10, RequestKind.BROWSING, 1);
  private static final ClassDefinition BRONZE =
      new ClassDefinition("bronze", 1, RequestKind.BROWSING, 1);

  private final FakeTicker ticker = new FakeTicker();
  private final List<ControllerRound> rounds = new ArrayList<>();
  private EndpointAdmissionController controller = controller(b -> b);

  private EndpointAdmissionController controller(
      UnaryOperator<ControllerParameters.Builder> tuning) {
    ControllerParameters p = tuning.apply(ControllerParameters.custom()).build();
    return new EndpointAdmissionController(
        "route",
        c -> new ClassSettings(100 * MS, p),
        new AdmissionListener() {
          @Override
          public void onRound(ControllerRound round) {
            rounds.add(round);
          }
        });
  }

  /** Gold misses its target for four rounds: bronze is cut by adjlo_d to rate_min. */
  private ClassController[] goldCutsBronzeToTheMinimum() {
    ClassController gold = controller.forClass(GOLD, ticker.read());
    ClassController bronze = controller.forClass(BRONZE, ticker.read());
    for (int i = 0; i < 4; i++) {
      for (int s = 0; s < 100; s++) {
        ticker.advance(Duration.ofMillis(1));
        long now = ticker.read();
        controller.record(gold, 300 * MS, now - 300 * MS, now);
      }
    }
    assertThat(bronze.rate()).isEqualTo(0.05);
    return new ClassController[] {gold, bronze};
  }

  /** Bronze offers 50/s for {@code seconds} and none of it runs to a sample. */
  private List<Action> bronzeRefusedFor(ClassController bronze, int seconds) {
    int before = rounds.size();
    for (int i = 0; i < seconds * 50; i++) {
      ticker.advance(Duration.ofMillis(20));
      controller.tryAdmit(bronze, ticker.read());
    }
    return rounds.subList(before, rounds.size()).stream()
        .filter(r -> r.requestClass().equals("bronze"))
        .map(ControllerRound::action)
        .toList();
  }

  @Test
  void aHigherClassStillMissingOnFreshSamplesCutsItselfOnceTheLowerAreAtTheMinimum() {
    ClassController gold = goldCutsBronzeToTheMinimum()[0];
    assertThat(gold.rate()).isEqualTo(100.0);
    // The next round still misses: nothing is left to take from bronze, so gold cuts itself
    // now (the paper counts lc_thresh = 20 such rounds first).
    for (int s = 0; s < 100; s++) {
      ticker.advance(Duration.ofMillis(1));
      long now = ticker.read();
      controller.record(gold, 300 * MS, now - 1, now);
    }
    ControllerRound last = rounds.get(rounds.size() - 1);
    assertThat(last.requestClass()).isEqualTo("gold");
    assertThat(last.action()).isEqualTo(Action.DECREASE);
    // In proportion to the miss: 300 ms against 100 ms.
    assertThat(gold.rate()).isCloseTo(100.0 / 3, within(0.5));
  }

  @Test
  void aRoundWithoutSamplesSpendsTheHigherClasssFlagAndDoesNotDoubleWhileTheHigherIsActive() {
    ClassController bronze = goldCutsBronzeToTheMinimum()[1];
    // Bronze's bucket refuses nearly all; what it admits never reports back within the test.
    // The paper's rounds would change nothing, and keep gold's flag for a round with samples.
    // Gold's last sample is 1.6 s old at bronze's second round: gold still holds it down.
    assertThat(bronzeRefusedFor(bronze, 2))
        .containsExactly(Action.SUPPRESSED_WITHOUT_SAMPLES, Action.NO_SAMPLES);
    assertThat(bronze.rate()).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void aClassAdmittedAtLessThanOneRequestARoundDoublesWithoutSamples() {
    controller = controller(b -> b.initialRate(0.2));
    ClassController alone = controller.forClass(BRONZE, ticker.read());
    // 0.2/s is a fifth of a request per 1 s round: no samples say nothing, so it doubles until
    // a round's worth of requests is admitted.
    assertThat(bronzeRefusedFor(alone, 4))
        .containsExactly(
            Action.DOUBLE_WITHOUT_SAMPLES,
            Action.DOUBLE_WITHOUT_SAMPLES,
            Action.DOUBLE_WITHOUT_SAMPLES,
            Action.NO_SAMPLES);
    assertThat(alone.rate()).isCloseTo(1.6, within(1e-9));
  }

  @Test
  void aClassWhoseRequestsAreQueuedDoesNotDoubleWithoutSamples() {
    ClassController alone = controller.forClass(BRONZE, ticker.read());
    // Admitted at 100/s, refused at 50/s offered above its bucket, and none completes: its
    // requests are queued (on a shared bottleneck completions come seconds late), and
    // doubling it would only queue more.
    for (int i = 0; i < 200; i++) {
      controller.tryAdmit(alone, ticker.read());
    }
    assertThat(bronzeRefusedFor(alone, 2)).containsOnly(Action.NO_SAMPLES);
    assertThat(alone.rate()).isEqualTo(100.0);
  }

  @Test
  void aLowerClassGetsItsRateBackWithinThreeRoundsOfTheHigherClassLeaving() {
    ClassController bronze = goldCutsBronzeToTheMinimum()[1];
    long goldLeft = ticker.read();
    List<Action> actions = bronzeRefusedFor(bronze, 3);
    // Bronze's rounds come at 1, 2 and 3 s after it was created, gold's last at 0.4 s: the
    // third is two timeouts after gold's last sample.
    assertThat(actions)
        .containsExactly(Action.SUPPRESSED_WITHOUT_SAMPLES, Action.NO_SAMPLES, Action.RESTORED);
    ControllerRound restored = rounds.get(rounds.size() - 1);
    assertThat(restored.nowNanos() - goldLeft).isEqualTo(2_600 * MS);
    assertThat(bronze.rate()).isEqualTo(100.0);
    // From there bronze's bucket admits at its old rate: over half of its 50/s offered in the
    // next round (it was refused nearly all before).
    int admitted = 0;
    for (int i = 0; i < 50; i++) {
      ticker.advance(Duration.ofMillis(20));
      if (controller.tryAdmit(bronze, ticker.read())) {
        admitted++;
      }
    }
    assertThat(admitted).isGreaterThanOrEqualTo(25);
  }

  /** Two rounds of 100 samples a millisecond apart (1,000/s), both over the target. */
  private Action missAtHighCompletions(EndpointAdmissionController c, ClassController alone) {
    for (long response : new long[] {300, 300}) {
      for (int s = 0; s < 100; s++) {
        ticker.advance(Duration.ofMillis(1));
        long now = ticker.read();
        c.record(alone, response * MS, now - MS / 2, now);
      }
    }
    return rounds.get(rounds.size() - 1).action();
  }

  @Test
  void theCompletionsFloorHoldsOnlyAClassAloneOnItsBottleneck() {
    ControllerParameters p = ControllerParameters.custom().build();
    AdmissionListener record =
        new AdmissionListener() {
          @Override
          public void onRound(ControllerRound round) {
            rounds.add(round);
          }
        };
    // Alone: 1,000 completions a second over a rate of 100 mean the queue is draining; hold.
    EndpointAdmissionController alone =
        new EndpointAdmissionController(
            "a", c -> new ClassSettings(100 * MS, p), record, true, () -> false);
    ClassController a = alone.forClass(BRONZE, ticker.read());
    assertThat(missAtHighCompletions(alone, a)).isEqualTo(Action.HOLD_AT_THROUGHPUT);
    assertThat(a.rate()).isEqualTo(100.0);
    // Beside other endpoints on one resource, its completions are only its share: it cuts.
    EndpointAdmissionController shared =
        new EndpointAdmissionController(
            "b", c -> new ClassSettings(100 * MS, p), record, true, () -> true);
    ClassController b = shared.forClass(BRONZE, ticker.read());
    assertThat(missAtHighCompletions(shared, b)).isEqualTo(Action.DECREASE);
    // Both rounds missed, 300 ms against 100 ms: cut in proportion each time.
    assertThat(b.rate()).isCloseTo(100 / 3.0 / 3.0, within(0.2));
  }

  @Test
  void aProportionalIncreaseScalesWithTheRate() {
    controller = controller(b -> b.proportionalIncrease(true).initialRate(400));
    ClassController alone = controller.forClass(BRONZE, ticker.read());
    for (int s = 0; s < 100; s++) {
      ticker.advance(Duration.ofMillis(1));
      long now = ticker.read();
      controller.record(alone, 10 * MS, now - 10 * MS, now);
    }
    // err = (10 − 100)/100 = −0.9; the paper's step −(err − c_i)·adj_i = 1.6/s; here 16 %.
    assertThat(rounds.get(rounds.size() - 1).action()).isEqualTo(Action.INCREASE);
    assertThat(alone.rate()).isCloseTo(400 * 1.16, within(0.1));
  }
}
