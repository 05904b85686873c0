package org.overloadcontrol.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The admit-new-sessions rule on measured windows (no clock: the windows' ends are given). */
class SessionLoadTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void withNothingMeasuredThereIsRoom() {
    assertThat(new SessionLoad().roomForNew(1_000_000, true, 0.9)).isTrue();
  }

  @Test
  void admittedSessionsTimesTheirRateAreHeldUnderTheHeadroomOfTheSaturatedThroughput() {
    SessionLoad load = new SessionLoad();
    for (int w = 1; w <= 3; w++) {
      load.saturated();
      window(load, 50, 100); // 50 sessions at 1 request/s; 100 done/s
      load.closeWindow(1.0, 50);
    }
    assertThat(load.ratePerSession()).isEqualTo(1.0);
    assertThat(load.capacity()).isEqualTo(100.0);
    assertThat(load.roomForNew(50, true, 0.9)).isTrue();
    assertThat(load.roomForNew(89, true, 0.9)).isTrue();
    assertThat(load.roomForNew(90, true, 0.9)).isFalse();
    assertThat(load.roomForNew(90, true, 1.0)).isTrue();
  }

  @Test
  void aGroupBelowItsLimitForThreeWindowsHasRoomUntilItIsSaturatedAgain() {
    SessionLoad load = new SessionLoad();
    load.saturated();
    window(load, 50, 50);
    load.closeWindow(1.0, 50);
    assertThat(load.roomForNew(200, false, 0.9)).isFalse(); // saturated a window ago
    for (int w = 2; w <= 5; w++) {
      window(load, 50, 50);
      load.closeWindow(1.0, 50);
    }
    assertThat(load.roomForNew(200, false, 0.9)).isTrue();
    assertThat(load.roomForNew(200, true, 0.9)).isFalse(); // saturated now
  }

  @Test
  void aWindowBelowTheLimitOnlyRaisesTheCapacity() {
    SessionLoad load = new SessionLoad();
    load.saturated();
    window(load, 10, 100);
    load.closeWindow(1.0, 10);
    window(load, 10, 40);
    load.closeWindow(1.0, 10);
    assertThat(load.capacity()).isEqualTo(100.0);
    window(load, 10, 160);
    load.closeWindow(1.0, 10);
    assertThat(load.capacity()).isEqualTo(160.0);
  }

  @Test
  void aSaturatedWindowRaisesTheCapacityAtOnceAndLowersItSlowly() {
    // While the gate refuses new sessions the group completes only what it let in: following
    // that down at once would admit less in every window than in the one before.
    SessionLoad load = new SessionLoad();
    load.saturated();
    window(load, 10, 100);
    load.closeWindow(1.0, 10);
    for (int w = 0; w < 5; w++) {
      load.saturated();
      window(load, 10, 50);
      load.closeWindow(1.0, 10);
    }
    assertThat(load.capacity()).isBetween(88.0, 89.0); // 50 + 50 × 0.95^5 = 88.7
    load.saturated();
    window(load, 10, 120);
    load.closeWindow(1.0, 10);
    assertThat(load.capacity()).isEqualTo(120.0);
  }

  private static void window(SessionLoad load, int sessionArrivals, int completions) {
    for (int i = 0; i < sessionArrivals; i++) {
      load.sessionArrival();
    }
    for (int i = 0; i < completions; i++) {
      load.completion();
    }
  }
}
