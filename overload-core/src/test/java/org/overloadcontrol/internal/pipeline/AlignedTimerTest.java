package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.virtualqueue.EpochClock;

class AlignedTimerTest {

  static final long MS = 1_000_000L;

  /** Two nodes started 0.37 s apart, on clocks that agree, run at the same wall moments. */
  @Test
  void nodesStartedAtDifferentTimesRunAtTheSameWallMoments() {
    FakeTicker ticker = new FakeTicker();
    FakeScheduler timers = new FakeScheduler(ticker);
    long t0 = ticker.read();
    // Ticker t0 is Unix second 1000 plus 40 ms.
    EpochClock clock = EpochClock.fixed(ticker, t0 - 40 * MS, 1000);
    List<Long> first = new ArrayList<>();
    List<Long> second = new ArrayList<>();
    AlignedTimer a =
        AlignedTimer.start(timers, clock, 500 * MS, 125 * MS, () -> first.add(ticker.read() - t0));
    ticker.advanceNanos(370 * MS);
    timers.runDue();
    AlignedTimer b =
        AlignedTimer.start(timers, clock, 500 * MS, 125 * MS, () -> second.add(ticker.read() - t0));
    for (int i = 0; i < 400; i++) {
      ticker.advanceNanos(5 * MS);
      timers.runDue();
    }
    // Wall x.125 and x.625 are t0 + 85 ms, 585 ms, ...; the first run came late (at 370 ms),
    // the next ones keep to the wall clock.
    assertThat(first).startsWith(370 * MS, 585 * MS, 1085 * MS);
    assertThat(second).startsWith(585 * MS, 1085 * MS);
    assertThat(first).endsWith(second.get(second.size() - 1));
    a.cancel();
    b.cancel();
    int runs = first.size() + second.size();
    ticker.advanceNanos(5_000 * MS);
    timers.runDue();
    assertThat(first.size() + second.size()).isEqualTo(runs);
    assertThat(timers.pendingOneShots()).isZero();
  }

  @Test
  void aBoundaryIsAlwaysAheadByAtMostOnePeriod() {
    FakeTicker ticker = new FakeTicker();
    EpochClock clock = EpochClock.fixed(ticker, 0, 7);
    assertThat(clock.nanosToBoundary(0, 250 * MS, 0)).isEqualTo(250 * MS);
    assertThat(clock.nanosToBoundary(1, 250 * MS, 0)).isEqualTo(250 * MS - 1);
    assertThat(clock.nanosToBoundary(0, 250 * MS, 125 * MS)).isEqualTo(125 * MS);
    assertThat(clock.nanosToBoundary(-10 * MS, 250 * MS, 0)).isEqualTo(10 * MS);
  }
}
