package org.overloadcontrol.internal.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PassiveCapacityTest {

  private static final long EPOCH = 10_000_000_000L;

  private static SyntheticServer paperServer(long seed) {
    return new SyntheticServer(
        new String[] {"browse", "book"}, new double[] {1, 4.2}, 0.023, 140, seed);
  }

  @Test
  void nobodyIsShapedWhileTrainingThenTheEstimateIsInForce() {
    PassiveCapacity pc =
        new PassiveCapacity(EPOCH, 84, 6, CapacityEstimator.defaults(), Runnable::run, 0);
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.TRAINING);
    assertThat(pc.capacity(0)).isInfinite();
    SyntheticServer server = paperServer(11);
    for (int i = 0; i < 83; i++) {
      pc.offer(server.epoch());
    }
    assertThat(pc.capacity(0)).isInfinite();
    pc.offer(server.epoch());
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.SHAPING);
    assertThat(pc.capacity(0)).isCloseTo(140, within(14.0));
    assertThat(pc.hardness("book")).isCloseTo(4.2, within(0.42));
    assertThat(pc.hardness("browse")).isEqualTo(1.0);
    assertThat(pc.hardness("never-seen")).isEqualTo(1.0);
    assertThat(pc.estimateCount()).isEqualTo(1);
  }

  @Test
  void theEstimateRunsOnTheGivenExecutorNotTheRequestThread() {
    List<Runnable> scheduled = new ArrayList<>();
    PassiveCapacity pc =
        new PassiveCapacity(EPOCH, 20, 6, CapacityEstimator.defaults(), scheduled::add, 0);
    SyntheticServer server = paperServer(12);
    for (int i = 0; i < 20; i++) {
      pc.offer(server.epoch());
    }
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.ESTIMATING);
    assertThat(pc.capacity(0)).isInfinite();
    assertThat(scheduled).hasSize(1);
    pc.offer(server.epoch());
    assertThat(scheduled).hasSize(1);
    scheduled.get(0).run();
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.SHAPING);
  }

  @Test
  void samplesOnTheCurveKeepTheEstimateSamplesOffItStartTraining() {
    PassiveCapacity pc =
        new PassiveCapacity(EPOCH, 84, 6, CapacityEstimator.defaults(), Runnable::run, 0);
    SyntheticServer server = paperServer(13);
    for (int i = 0; i < 84; i++) {
      pc.offer(server.epoch());
    }
    double estimate = pc.capacity(0);
    for (int i = 0; i < 60; i++) {
      pc.offer(server.epoch());
    }
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.SHAPING);
    assertThat(pc.capacity(0)).isEqualTo(estimate);

    // The server gets twice as slow: capacity 70 subunits/s.
    SyntheticServer slower =
        new SyntheticServer(new String[] {"browse", "book"}, new double[] {1, 4.2}, 0.046, 70, 14);
    for (int i = 0; i < 6; i++) {
      pc.offer(slower.epoch());
    }
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.TRAINING);
    assertThat(pc.capacity(0)).isInfinite();
    for (int i = 0; i < 84; i++) {
      pc.offer(slower.epoch());
    }
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.SHAPING);
    assertThat(pc.capacity(0)).isCloseTo(70, within(7.0));
    assertThat(pc.estimateCount()).isEqualTo(2);
  }
}
