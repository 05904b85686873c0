package org.overloadcontrol.internal.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EpochRecorderTest {

  private static final long S = 1_000_000_000L;

  @Test
  void countsPerTypeAreEmittedOncePerEpoch() {
    List<EpochSample> out = new ArrayList<>();
    EpochRecorder r = new EpochRecorder(10 * S, 0, out::add);
    for (int i = 0; i < 30; i++) {
      r.arrived("browse", i * S / 10);
      r.completed("browse", 20_000_000, i * S / 10 + 1);
    }
    r.arrived("book", 5 * S);
    r.completed("book", 100_000_000, 6 * S);
    assertThat(out).isEmpty();
    r.roll(10 * S);
    assertThat(out).hasSize(1);
    EpochSample e = out.get(0);
    assertThat(e.seconds()).isEqualTo(10);
    assertThat(e.types().get("browse").arrivals()).isEqualTo(30);
    assertThat(e.types().get("browse").completions()).isEqualTo(30);
    assertThat(e.types().get("browse").responseSecondsSum()).isCloseTo(0.6, within(1e-9));
    assertThat(e.types().get("book").responseSecondsSum()).isCloseTo(0.1, within(1e-9));
    r.roll(11 * S);
    assertThat(out).hasSize(1);
  }

  @Test
  void idleEpochsEmitNothingAndEpochsStayAligned() {
    List<EpochSample> out = new ArrayList<>();
    EpochRecorder r = new EpochRecorder(10 * S, 0, out::add);
    r.arrived("a", S);
    r.arrived("a", 75 * S);
    assertThat(out).hasSize(1);
    r.arrived("a", 79 * S);
    r.roll(80 * S);
    assertThat(out).hasSize(2);
    assertThat(out.get(1).arrivals()).isEqualTo(2);
  }

  @Test
  void passiveCapacityFeedsTheRecorder() {
    PassiveCapacity pc =
        new PassiveCapacity(10 * S, 5, 3, CapacityEstimator.defaults(), Runnable::run, 0);
    for (int epoch = 0; epoch < 6; epoch++) {
      long base = epoch * 10 * S;
      int n = 20 + 30 * epoch;
      for (int i = 0; i < n; i++) {
        long t = base + i * (10 * S / n);
        pc.arrived("only", t);
        pc.completed("only", (long) (1e7 * (1 + epoch)), true, t + 1);
      }
    }
    pc.capacity(60 * S);
    assertThat(pc.state()).isEqualTo(PassiveCapacity.State.SHAPING);
    assertThat(pc.estimate().sampleCount()).isEqualTo(5);
  }
}
