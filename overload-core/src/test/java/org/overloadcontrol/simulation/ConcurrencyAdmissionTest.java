package org.overloadcontrol.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.simulation.SharedBottleneck.Result;
import org.overloadcontrol.simulation.SharedBottleneck.Variant;

/**
 * The concurrency-limit controller (the default for endpoints with a target) driving eight
 * endpoints on one shared server, on a simulated clock (see {@link SharedBottleneck}).
 */
class ConcurrencyAdmissionTest {

  private final List<LimitRound> rounds = new ArrayList<>();
  private final AdmissionListener listener =
      new AdmissionListener() {
        @Override
        public void onLimitRound(LimitRound round) {
          rounds.add(round);
        }
      };

  @Test
  void aLoadStepDrivesTheLimitDownUntilThePercentileIsUnderTheSetpoint() {
    SharedBottleneck sim = new SharedBottleneck(Variant.CONCURRENCY, 1, 200, 7, Map.of(), listener);
    // Half the capacity: nothing presses against the limit, so no request waits.
    Result calm = sim.run(0.5, 20, 5, 0);
    assertThat(calm.refused() + calm.expired()).isZero();
    assertThat(calm.waitP90OfTarget()).isZero();
    ConcurrencyGroup group = sim.engine().concurrencyGroups().get(0);
    assertThat(group.limit()).isGreaterThan(20);
    int before = rounds.size();
    Result step = sim.run(4, 40, 10);
    List<LimitRound> after = rounds.subList(before, rounds.size());
    assertThat(after.stream().mapToDouble(LimitRound::limitAfter).min().orElseThrow())
        .isLessThan(10);
    // The last half of the run: the windows' p90 sits at or under the setpoint (under it by
    // the scale of the endpoint with the least slack: its responses, wait included, over
    // the target), the limit near the server's two workers plus a short queue, and the server
    // is never idle.
    List<LimitRound> late = after.subList(after.size() / 2, after.size());
    double[] p90s =
        late.stream()
            .mapToDouble(LimitRound::p90OfTarget)
            .filter(v -> !Double.isNaN(v))
            .sorted()
            .toArray();
    assertThat(p90s[p90s.length / 2]).isBetween(0.45, 0.95);
    assertThat(step.executionP90OfTarget()).isLessThan(0.95);
    assertThat(step.p90OfTarget()).isLessThan(1.1);
    assertThat(step.worstEndpointP90()).isLessThan(1.1);
    // 0.93 on this seed since a cut waits for requests admitted under it (0.96 on average over
    // 20 seeds at 2×, SeedSpreadTableTest).
    assertThat(step.goodputOfCapacity()).isGreaterThan(0.9);
    assertSettled(sim);
  }

  @Test
  void aHealthyEndpointIsNeverThrottled() {
    SharedBottleneck sim =
        new SharedBottleneck(Variant.CONCURRENCY, 2, 200, 11, Map.of(), listener);
    Result r = sim.run(0.5, 60, 0);
    assertThat(r.p90OfTarget()).isLessThan(0.9);
    assertThat(r.refused()).isZero();
    assertThat(r.expired()).isZero();
    assertThat(r.waitP90OfTarget()).isZero();
    // A window's p90 of 20 samples can miss the target by chance; the limit is then cut, but
    // never below what was in flight, so it never binds a load this far under capacity.
    assertThat(rounds)
        .isNotEmpty()
        .allSatisfy(round -> assertThat(round.limitAfter()).isGreaterThan(20.0));
    assertSettled(sim);
  }

  @Test
  void withAnIdleHeadroomTheLimitComesDownUnderAHealthyLoadAndStillHoldsNothingBack() {
    SharedBottleneck sim =
        new SharedBottleneck(
            Variant.CONCURRENCY, 2, 200, 11, Map.of("admission.idleHeadroom", "2"), listener);
    Result r = sim.run(0.5, 60, 0);
    assertThat(r.refused()).isZero();
    assertThat(r.expired()).isZero();
    assertThat(r.waitP90OfTarget()).isZero();
    // From the maximum (200) toward twice what ran; without the headroom it stays over 20.
    assertThat(rounds).isNotEmpty();
    assertThat(rounds.get(rounds.size() - 1).limitAfter()).isLessThan(20.0);
    assertSettled(sim);
  }

  /**
   * Over ten seeds, not one: on one seed the worst endpoint's p90 lands anywhere from 1.0 to 1.4
   * of its target whenever a change moves the limit's path in the first seconds (seed 42, on
   * which this test once stood at 1.1, read 1.04 at 10× before the dead time's deep-backlog cut
   * and 1.10 after, while the mean of seeds 42–51 went from 1.15 to 1.14, and at 2× from 1.19 to
   * 1.11; {@link SeedSpreadTableTest} prints the spread over more).
   */
  @Test
  void theNewDefaultHoldsGoodputAndTargetFromTwiceToTenTimesTheCapacity() {
    int seeds = 10;
    for (double load : new double[] {2, 10}) {
      double worst = 0;
      double goodput = 0;
      for (int seed = 42; seed < 42 + seeds; seed++) {
        SharedBottleneck sim = new SharedBottleneck(Variant.CONCURRENCY, 1, 200, seed, Map.of());
        Result r = sim.run(load, 40, 10);
        worst += r.worstEndpointP90() / seeds;
        goodput += r.goodputOfCapacity() / seeds;
        assertThat(r.goodputOfCapacity())
            .as("goodput at %s×, seed %d", load, seed)
            .isGreaterThan(0.8);
        assertSettled(sim);
      }
      assertThat(goodput).as("mean goodput at %s×", load).isGreaterThanOrEqualTo(0.95);
      assertThat(worst)
          .as("mean of the worst endpoint's p90 at %s×", load)
          .isLessThanOrEqualTo(1.15);
    }
  }

  /** Every request had exactly one outcome; nothing waits and no permit is held. */
  static void assertSettled(SharedBottleneck sim) {
    OverloadEngine engine = sim.engine();
    assertThat(sim.unfinished()).isZero();
    assertThat(engine.queues().waitingCount()).isZero();
    assertThat(engine.queues().permitsInUse()).isZero();
    for (ConcurrencyGroup g : engine.concurrencyGroups()) {
      assertThat(g.inFlight()).isZero();
    }
  }
}
