package org.overloadcontrol.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class StripedCountsTest {

  @Test
  void countsAreExactWhenManyMoreThreadsThanStripesShareThem() throws Exception {
    StripedCounts counts = new StripedCounts(3);
    int threads = Stripes.COUNT * 4;
    int perThread = 50_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        for (int i = 0; i < perThread; i++) {
          counts.increment(0);
          counts.add(1, 3L);
          counts.add(2, 1L);
          counts.add(2, -1L);
        }
      });
      w.start();
      workers.add(w);
    }
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
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
