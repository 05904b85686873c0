package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Stripes;
import org.overloadcontrol.testing.Concurrently;

class StripedCountsTest {

  @Test
  void countsAreExactWhenManyMoreThreadsThanStripesShareThem() throws Exception {
    StripedCounts counts = new StripedCounts(3);
    int threads = Stripes.COUNT * 4;
    int perThread = 50_000;
    Concurrently.run(
        threads,
        perThread,
        () -> {
          counts.increment(0);
          counts.add(1, 3L);
          counts.add(2, 1L);
          counts.add(2, -1L);
        });
    assertThat(counts.sum(0)).isEqualTo((long) threads * perThread);
    assertThat(counts.sum(1)).isEqualTo(3L * threads * perThread);
    assertThat(counts.sum(2)).isZero();
  }

  @Test
  void countersAreIndependent() {
    StripedCounts counts = new StripedCounts(StripedCounts.MAX_COUNTERS);
    for (int c = 0; c < StripedCounts.MAX_COUNTERS; c++) {
      counts.add(c, c + 1);
    }
    for (int c = 0; c < StripedCounts.MAX_COUNTERS; c++) {
      assertThat(counts.sum(c)).isEqualTo(c + 1);
    }
  }

  @Test
  void aCounterOutsideTheSetIsAnError() {
    assertThatThrownBy(() -> new StripedCounts(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StripedCounts(StripedCounts.MAX_COUNTERS + 1))
        .isInstanceOf(IllegalArgumentException.class);
    StripedCounts counts = new StripedCounts(2);
    assertThatThrownBy(() -> counts.increment(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> counts.sum(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
