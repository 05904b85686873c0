package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A cut stops at what the group ran within its targets in its best recent second ({@link
 * ThroughputFloor}), on a fake clock: executions long for a reason no cut removes do not cut a
 * downstream pool's limit under what ran within target, and the floor is what the seconds say.
 */
class ThroughputFloorTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final long TARGET = 100 * MS;
  private final ClassDefinition api = new ClassDefinition("api", 1, RequestKind.BROWSING, 1);
  private final FakeTicker clock = new FakeTicker(1_000_000 * MS);

  @Test
  void aSecondsFloorIsTheSmallerOfWhatRanAndWhatItsCompletionsNeed() {
    ThroughputFloor floor = new ThroughputFloor();
    long now = clock.read();
    // 400 completions a second within a 100 ms target, counted for a fifth of it (twice a
    // shortest median of a tenth): 8 needed; 12 ran on average.
    for (int w = 0; w < 10; w++) {
      now += 100 * MS;
      floor.add(now, 100 * MS, 40 * TARGET * ThroughputFloor.shareOfNeed(0.1), 12);
    }
    assertThat(floor.limit(now)).isCloseTo(8, within(1e-9));
    // A second in which 3 ran: the best second of the last ten still holds.
    for (int w = 0; w < 10; w++) {
      now += 100 * MS;
      floor.add(now, 100 * MS, 40 * TARGET * ThroughputFloor.shareOfNeed(0.1), 3);
    }
    assertThat(floor.limit(now)).isCloseTo(8, within(1e-9));
    // Nine and a half seconds on, only the second of 3 remains; ten and a half on, none.
    assertThat(floor.limit(now + 9 * SECOND + SECOND / 2)).isCloseTo(3, within(1e-9));
    assertThat(floor.limit(now + 10 * SECOND + SECOND / 2)).isZero();
  }

  @Test
  void theNeedCountsAtMostHalfOfEachTarget() {
    assertThat(ThroughputFloor.shareOfNeed(0.1)).isCloseTo(0.2, within(1e-9));
    assertThat(ThroughputFloor.shareOfNeed(0.4)).isEqualTo(ThroughputFloor.SHARE_OF_NEED);
    ThroughputFloor floor = new ThroughputFloor();
    long now = clock.read() + SECOND;
    // Nothing within target: no floor, so a cold start's late executions still cut.
    floor.add(now, SECOND, 0, 50);
    assertThat(floor.limit(now)).isZero();
  }

  /**
   * A downstream pool of 8 connections, 20 ms a call, offered 2.5 times what it serves; from the
   * fifth second the cores are taken by other work (clients re-sending every refusal at once, say):
   * every call runs 20 ms longer at any level and every fourth 150 ms, so the p90 sits at 1.5 times
   * the target whatever the limit. No cut shortens that; each idles the pool.
   */
  @Test
  void executionsNoCutShortensDoNotCutAPoolsLimitUnderWhatItRanWithinTarget() {
    List<LimitRound> rounds = new ArrayList<>();
    ConcurrencyGroup g = GroupLoad.recordedGroup(200, 200, clock, rounds);
    GroupLoad run = new GroupLoad(g, api, TARGET, clock);
    run.maxWait = 50 * MS;
    run.waitsInResponse = true;
    long[] started = {0};
    GroupLoad.Execution pool =
        (elapsed, inFlight) -> {
          long queued = Math.max(20 * MS, 20 * MS * inFlight / 8);
          if (elapsed < 5 * SECOND) {
            return queued;
          }
          return started[0]++ % 4 == 0 ? 150 * MS : queued + 20 * MS;
        };
    run.drive(5_000, 1, 0, pool);
    int lowest = Integer.MAX_VALUE;
    long before = run.completed;
    for (int t = 0; t < 8_000; t++) {
      run.drive(1, 1, 0, pool);
      lowest = Math.min(lowest, g.limit());
    }
    // Before the floor the limit fell to 6, under the pool's 8 connections, and the pool served
    // 142 a second; held at what ran within target (the best second's 20), 215.
    assertThat(lowest).as("the lowest limit").isGreaterThanOrEqualTo(16);
    assertThat((run.completed - before) / 8.0).as("completions a second").isGreaterThan(190);
    assertThat(rounds).anyMatch(r -> r.held() == LimitRound.Held.THROUGHPUT_FLOOR);
  }
}
