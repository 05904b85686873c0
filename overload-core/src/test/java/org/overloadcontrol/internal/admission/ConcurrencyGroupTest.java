package org.overloadcontrol.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.base.Stripes;

/** A concurrency group's partitions and windows, on a fake clock. */
class ConcurrencyGroupTest {

  private static final long MS = 1_000_000L;
  private static final long TARGET = 200 * MS;
  private final ClassDefinition buy = new ClassDefinition("buy", 5, RequestKind.TRANSACTION, 1);
  private final ClassDefinition browse = new ClassDefinition("browse", 1, RequestKind.BROWSING, 1);
  private final List<LimitRound> rounds = new ArrayList<>();
  private long now = 1_000_000 * MS;
  private final ConcurrencyGroup group =
      new ConcurrencyGroup(
          "db",
          new ConcurrencyLimit(0.9, 0.8, 1.05, 1, 10),
          10,
          100 * MS,
          100,
          new AdmissionListener() {
            @Override
            public void onLimitRound(LimitRound round) {
              rounds.add(round);
            }
          },
          now);

  /** Closes a window in which every request ran at 0.5 of its target: the limit holds. */
  private void window(ConcurrencyGroup.Partition recordInto) {
    for (int i = 0; i < ConcurrencyGroup.MIN_SAMPLES; i++) {
      recordInto.record(TARGET / 2, now, 0);
    }
    now += 100 * MS;
    group.tick(now);
  }

  /** {@code p} takes {@code permits} and holds them at a window's end: it reserves them. */
  private void holdThroughAWindow(ConcurrencyGroup.Partition p, int permits) {
    for (int i = 0; i < permits; i++) {
      assertThat(p.tryAcquire(0)).isTrue();
    }
    window(p);
  }

  @Test
  void aClassWaitsOnlyWhileItsWaitersCanBeServedWithinTheWaitsBound() {
    ConcurrencyGroup.Partition p = group.partition(browse, TARGET, TARGET / 2);
    // Before the class's first execution nothing says how fast permits free: any number waits.
    for (int i = 0; i < 100; i++) {
      p.waiterAdded();
    }
    assertThat(p.roomToWait()).isTrue();
    for (int i = 0; i < 100; i++) {
      p.waiterRemoved();
    }
    // Executions at 0.75 of the target: a waiter may wait the 50 ms the target leaves, in
    // which a limit of 10 frees 10 × 50 / 150 = 3.3 permits; twice that, 7, may wait.
    for (int i = 0; i < ConcurrencyGroup.MIN_SAMPLES; i++) {
      p.record(TARGET * 3 / 4, now, 0);
    }
    now += 100 * MS;
    group.tick(now);
    assertThat(group.limit()).isEqualTo(10);
    for (int i = 0; i < 6; i++) {
      p.waiterAdded();
    }
    assertThat(p.roomToWait()).isTrue();
    p.waiterAdded();
    assertThat(p.roomToWait()).isFalse();
    p.waiterRemoved();
    assertThat(p.roomToWait()).isTrue();
  }

  @Test
  void whileTheCoresAreSaturatedAWaitingRoomNarrowsWithItsExpiries() {
    ConcurrencyGroup.Partition p = group.partition(browse, TARGET, TARGET / 2);
    for (int i = 0; i < ConcurrencyGroup.MIN_SAMPLES; i++) {
      p.record(TARGET * 3 / 4, now, 0);
    }
    now += 100 * MS;
    group.tick(now);
    // Room for 7 (above). Cores with time to spare: expiries leave it alone.
    expireWaiters(p, 20);
    assertThat(waitersAdmitted(p)).isEqualTo(7);
    // Saturated cores: every waiter refused at its deadline took cores from the requests
    // being served, and 20 in a row bring the room down to one waiter.
    group.coresSaturated(true);
    expireWaiters(p, 20);
    assertThat(waitersAdmitted(p)).isEqualTo(1);
    // Waiters that get their permits widen it again, by 1 % each.
    for (int i = 0; i < 250; i++) {
      p.waiterAdded();
      p.waiterRemoved(false);
    }
    assertThat(waitersAdmitted(p)).isEqualTo(7);
    // Cancelled waiters (clients that left) say nothing of the room.
    expireWaiters(p, 3);
    int narrowed = waitersAdmitted(p);
    assertThat(narrowed).isLessThan(7);
    for (int i = 0; i < 50; i++) {
      p.waiterAdded();
      p.waiterRemoved();
    }
    assertThat(waitersAdmitted(p)).isEqualTo(narrowed);
    // Once the cores have time again, the room is what Little's law says.
    group.coresSaturated(false);
    assertThat(waitersAdmitted(p)).isEqualTo(7);
  }

  private static void expireWaiters(ConcurrencyGroup.Partition p, int n) {
    for (int i = 0; i < n; i++) {
      p.waiterAdded();
      p.waiterRemoved(true);
    }
  }

  /** How many waiters {@code p} lets wait now, counted by adding them until it says no. */
  private static int waitersAdmitted(ConcurrencyGroup.Partition p) {
    int n = 0;
    while (p.roomToWait()) {
      p.waiterAdded();
      n++;
    }
    for (int i = 0; i < n; i++) {
      p.waiterRemoved();
    }
    return n;
  }

  @Test
  void aHigherClassKeepsItsShareAndFreesItWithinOneWindowOfLeaving() {
    ConcurrencyGroup.Partition high = group.partition(buy, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition low = group.partition(browse, TARGET, TARGET / 2);
    holdThroughAWindow(high, 6);
    assertThat(rounds).hasSize(1);
    assertThat(group.limit()).isEqualTo(10);
    // The high class reserved its 6; it frees 3 of them for a moment, and the low class may
    // take only what nobody reserved: 4 of 10.
    for (int i = 0; i < 3; i++) {
      high.release(0);
    }
    int lowTaken = 0;
    while (low.tryAcquire(0)) {
      lowTaken++;
    }
    assertThat(lowTaken).isEqualTo(4);
    assertThat(high.tryAcquire(0)).isTrue(); // its reservation is still there for it
    high.release(0);
    // The high class leaves altogether. Its reservation binds until the next window's end,
    // but only the upper half of the limit: the low class, holding 4, may fill the lower half.
    for (int i = 0; i < 3; i++) {
      high.release(0);
    }
    assertThat(low.tryAcquire(0)).isTrue();
    lowTaken++;
    assertThat(low.tryAcquire(0)).isFalse();
    window(low);
    assertThat(rounds).hasSize(2);
    while (low.tryAcquire(0)) {
      lowTaken++;
    }
    assertThat(lowTaken).isEqualTo(10);
    for (int i = 0; i < lowTaken; i++) {
      low.release(0);
    }
    assertThat(group.inFlight()).isZero();
    assertThat(high.inFlightNow()).isZero();
    assertThat(low.inFlightNow()).isZero();
  }

  @Test
  void reservationsNeverHoldBackALowerClassUnderHalfTheLimit() {
    ConcurrencyGroup.Partition high = group.partition(buy, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition low = group.partition(browse, TARGET, TARGET / 2);
    holdThroughAWindow(high, 8);
    // The high class reserved 8 of 10 and then holds none: the resource would sit idle while
    // the low class waits. Under half the limit the low class takes permits regardless.
    for (int i = 0; i < 8; i++) {
      high.release(0);
    }
    int lowTaken = 0;
    while (low.tryAcquire(0)) {
      lowTaken++;
    }
    assertThat(lowTaken).isEqualTo(5);
    assertThat(high.tryAcquire(0)).isTrue(); // the upper half is still the high class's
    high.release(0);
    for (int i = 0; i < lowTaken; i++) {
      low.release(0);
    }
    assertThat(group.inFlight()).isZero();
  }

  @Test
  void aWindowOfFewSamplesRunsOnUntilItHasEnoughOrTenWindowsPassed() {
    ConcurrencyGroup.Partition p = group.partition(browse, TARGET, TARGET / 2);
    p.record(TARGET * 2, now, 0);
    now += 100 * MS;
    assertThat(group.tick(now)).isFalse();
    assertThat(rounds).isEmpty();
    now += 900 * MS;
    group.tick(now);
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(1);
    assertThat(group.limit()).isEqualTo(8); // cut by the least factor, 0.8
  }

  @Test
  void aFullWindowOfSamplesClosesBeforeItsTime() {
    ConcurrencyGroup.Partition p = group.partition(browse, TARGET, TARGET / 2);
    for (int i = 0; i < 10; i++) {
      assertThat(p.tryAcquire(0)).isTrue();
    }
    assertThat(p.tryAcquire(0)).isFalse();
    for (int i = 0; i < 10; i++) {
      p.release(0);
    }
    now += 20 * MS;
    for (int i = 0; i < 100; i++) {
      p.record(TARGET, now, 0);
    }
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).p90OfTarget()).isBetween(0.99, 1.01);
    assertThat(group.limit()).isEqualTo(9);
  }

  /** Takes every permit {@code p} can get and returns them: the window reached its limit. */
  private static void reachTheLimit(ConcurrencyGroup.Partition p) {
    int taken = 0;
    while (p.tryAcquire(0)) {
      taken++;
    }
    for (int i = 0; i < taken; i++) {
      p.release(0);
    }
  }

  /**
   * A pressed window: the limit is reached, 20 browsing requests ran at 0.9 of their target
   * (the setpoint) and, when {@code buyMillis} is positive, one purchase (target 150 ms) ran
   * that long. Returns the limit after the window.
   */
  private int pressedWindow(
      ConcurrencyGroup g,
      ConcurrencyGroup.Partition browsing,
      ConcurrencyGroup.Partition buying,
      long buyMillis) {
    reachTheLimit(browsing);
    for (int i = 0; i < 20; i++) {
      browsing.record(TARGET * 9 / 10, now, 0);
    }
    if (buyMillis > 0) {
      buying.record(buyMillis * MS, now, 0);
    }
    now += 100 * MS;
    g.tick(now);
    return g.limit();
  }

  /** A group at a limit of 40 (between 1 and 100), without a listener. */
  private ConcurrencyGroup limitOf40() {
    return limitFrom(40);
  }

  @Test
  void aFlashCrowdOnAnIdleLimitIsBroughtToTheTargetInAFewWindows() {
    // The limit idled at the container's 200 threads; 150 users arrive at a resource that
    // serves one request in 25 ms, so each runs 25 ms times the requests in flight, against a
    // 100 ms target: 37.5 × the target at first, met at 3 in flight.
    ConcurrencyGroup g = limitFrom(200, 200);
    ConcurrencyGroup.Partition p = g.partition(browse, 100 * MS, 50 * MS);
    int windows = 0;
    int underTen = -1;
    while (windows < 40 && g.limit() > 3) {
      int inFlight = 0;
      while (inFlight < 150 && p.tryAcquire(0)) {
        inFlight++;
      }
      for (int i = 0; i < ConcurrencyGroup.MIN_SAMPLES; i++) {
        p.record(25 * MS * inFlight, now, 0);
      }
      for (int i = 0; i < inFlight; i++) {
        p.release(0);
      }
      now += 100 * MS;
      g.tick(now);
      windows++;
      if (underTen < 0 && g.limit() < 10) {
        underTen = windows;
      }
    }
    // At 0.8 a window it took 15 windows to get under 10.
    assertThat(underTen).as("windows until the limit is under 10").isEqualTo(5);
    assertThat(windows).as("windows until the target is met").isLessThanOrEqualTo(12);
    assertThat(g.inFlight()).isZero();
  }

  /** A group starting at {@code initial} (between 1 and 100), without a listener. */
  private ConcurrencyGroup limitFrom(int initial) {
    return limitFrom(initial, 100);
  }

  /** A group starting at {@code initial} (between 1 and {@code max}), without a listener. */
  private ConcurrencyGroup limitFrom(int initial, int max) {
    return GroupLoad.group(initial, max, AdmissionListener.NONE, now);
  }

  @Test
  void aSparseClassThatMissesItsTighterTargetHoldsTheLimitDown() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    // The browsing pages sit at the setpoint; one purchase in five windows runs 180 ms, 1.2
    // times its 150 ms target: 1 sample in 100, invisible in the window's p90.
    int limit = 40;
    for (int w = 0; w < 50; w++) {
      limit = pressedWindow(g, browsing, buying, w % 5 == 0 ? 180 : 0);
    }
    assertThat(g.scale()).isLessThan(0.75);
    assertThat(limit).as("cut for the purchases' misses").isLessThan(20);

    // The purchases now meet their target: the scale climbs back and the limit with it.
    for (int w = 0; w < 400; w++) {
      limit = pressedWindow(g, browsing, buying, 100);
    }
    assertThat(g.scale()).isEqualTo(1.0);
    int settled = limit;
    for (int w = 0; w < 20; w++) {
      limit = pressedWindow(g, browsing, buying, 100);
    }
    assertThat(limit).as("at the setpoint the limit holds").isEqualTo(settled);
  }

  @Test
  void aSparseClassIsAimedUnderItsTargetWithAMargin() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    // One purchase in eleven over its target: a p90 under the target, but not by much. A page
    // served thirty times in a run then scatters past 1.1 × its target (issue 19's session
    // runs), so such a class still holds the limit down.
    for (int cycle = 0; cycle < 20; cycle++) {
      pressedWindow(g, browsing, buying, 180);
      for (int w = 0; w < 10; w++) {
        pressedWindow(g, browsing, buying, 100);
      }
    }
    // Aimed at a miss share of 10 %, the class met its aim and the scale stayed at 1.
    assertThat(g.scale()).isLessThan(0.85);
  }

  @Test
  void aClassWithFewSamplesAimsLowerThanOneWithMany() {
    // One purchase in fourteen over its target (7 %): a dense class meets its aim (7.7 %), a
    // sparse one, whose p90 in a step of a sweep is its largest or second-largest response,
    // does not (6 %).
    ConcurrencyGroup sparse = limitOf40();
    ConcurrencyGroup.Partition sparseBrowsing = sparse.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition sparseBuying = sparse.partition(buy, 150 * MS, 75 * MS);
    ConcurrencyGroup dense = limitOf40();
    ConcurrencyGroup.Partition denseBrowsing = dense.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition denseBuying = dense.partition(buy, 150 * MS, 75 * MS);
    for (int cycle = 0; cycle < 10; cycle++) {
      for (int i = 0; i < 14; i++) {
        // The sparse class: one purchase every other window (25 in its memory).
        pressedWindow(sparse, sparseBrowsing, sparseBuying, i == 0 ? 180 : 100);
        pressedWindow(sparse, sparseBrowsing, sparseBuying, 0);
      }
    }
    for (int w = 0; w < 40; w++) {
      // The dense class: fourteen purchases a window, one of them late.
      for (int k = 0; k < 13; k++) {
        denseBuying.record(100 * MS, now, 0);
      }
      pressedWindow(dense, denseBrowsing, denseBuying, 180);
    }
    assertThat(dense.scale()).as("a dense class at 7 % misses").isEqualTo(1.0);
    assertThat(sparse.scale()).as("a sparse class at 7 % misses").isLessThan(0.85);
    assertThat(sparse.limit()).isLessThan(dense.limit());
  }

  /**
   * A window at the limit whose browsing requests queued: 17 ran in 100 ms and 3 in 140 ms (a
   * p90 of 0.7 of their target, under the setpoint), and one purchase (target 150 ms) ran
   * {@code buyMillis} (none when 0). Returns the limit after the window.
   */
  private int queuedWindow(
      ConcurrencyGroup g,
      ConcurrencyGroup.Partition browsing,
      ConcurrencyGroup.Partition buying,
      long buyMillis) {
    reachTheLimit(browsing);
    for (int i = 0; i < 20; i++) {
      browsing.record((i % 7 == 0 ? 140 : 100) * MS, now, 0);
    }
    if (buyMillis > 0) {
      buying.record(buyMillis * MS, now, 0);
    }
    now += 100 * MS;
    g.tick(now);
    return g.limit();
  }

  @Test
  void aClassWhoseOwnExecutionPlusTheGroupsQueueingWouldMissHoldsTheLimitDown() {
    // Purchases run 110 ms of their 150 (they meet their target, so their scale stays 1), and
    // the browsing pages' executions spread by 40 ms above their median: the queueing a
    // purchase meets as well. A purchase that met it would run 150 ms: the limit comes down
    // before one does, on the dense evidence of every class.
    ConcurrencyGroup late = limitOf40();
    ConcurrencyGroup.Partition browsing = late.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = late.partition(buy, 150 * MS, 75 * MS);
    // Purchases that run 60 ms would run 100 ms behind the same queueing: room to grow.
    ConcurrencyGroup early = limitOf40();
    ConcurrencyGroup.Partition browsingEarly = early.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buyingEarly = early.partition(buy, 150 * MS, 75 * MS);
    for (int w = 0; w < 30; w++) {
      queuedWindow(late, browsing, buying, 110);
      queuedWindow(early, browsingEarly, buyingEarly, 60);
    }
    assertThat(buying.missShare()).isZero();
    assertThat(late.scale()).isEqualTo(1.0);
    assertThat(late.limit()).as("predicted to miss").isLessThan(20);
    assertThat(early.limit()).as("predicted to meet").isGreaterThan(40);
  }

  /**
   * The shop at 10×: a checkout page is served once in 10–20 s, a hundred windows apart. Its
   * executions (110 ms of its 150, within its target) plus the queueing the browsing pages meet
   * (40 ms above their median) would miss: the prediction must keep holding the limit down
   * between its responses. Counted in windows only, it dropped out fifty windows after each
   * response, and the limit grew back to what the browsing pages tolerate.
   */
  @Test
  void aClassServedOnceInTenSecondsStillHoldsTheLimitDownBetweenItsResponses() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    for (int w = 0; w < 1000; w++) {
      if (w >= 200 && w % 100 == 0) {
        assertThat(g.limit()).as("the limit a purchase meets after %d windows", w).isLessThan(3);
      }
      queuedWindow(g, browsing, buying, w % 100 == 0 ? 110 : 0);
    }
    assertThat(buying.missShare()).isZero();
    // Gone for more than a minute, it no longer holds the limit down.
    int held = g.limit();
    for (int w = 0; w < 800; w++) {
      queuedWindow(g, browsing, buying, 0);
    }
    assertThat(g.limit()).as("80 s after the last purchase").isGreaterThan(held);
  }

  /**
   * The shop at 10×: a buyer's checkout pages come tens of seconds apart, and between them the
   * limit grows on the browsing pages alone, whose executions all grow alike with it (no
   * spread about their median, so the queueing a purchase would meet shows nowhere). Every
   * request runs 20 ms for each request in flight, a purchase 30 ms more (its own work). The
   * purchases came while two were in flight (70 ms of their 150); the median learnt then must
   * count for the limit a purchase meets later. Taken as it was learnt, it predicted 0.47 of
   * the target at any limit, and the limit grew toward 9 (where the browsing pages reach their
   * setpoint): 7 within the twenty seconds, where a purchase runs 170 ms.
   */
  @Test
  void aSparseClassesMedianLearntAtALowerLevelCountsForTheLimitNow() {
    ConcurrencyGroup g = limitFrom(4);
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    // Three seconds with a purchase in every window, two requests in flight at the peak and
    // others waiting for the wait queues' own permits (the limit holds).
    for (int w = 0; w < 30; w++) {
      assertThat(browsing.tryAcquire(0)).isTrue();
      assertThat(browsing.tryAcquire(0)).isTrue();
      browsing.release(0);
      browsing.release(0);
      browsing.markWaited();
      for (int i = 0; i < 20; i++) {
        browsing.record(40 * MS, now, 0);
      }
      buying.record(70 * MS, now, 0);
      now += 100 * MS;
      g.tick(now);
    }
    assertThat(g.limit()).isEqualTo(4);
    // Twenty seconds without a purchase, the limit reached in every window.
    for (int w = 0; w < 200; w++) {
      reachTheLimit(browsing);
      for (int i = 0; i < 20; i++) {
        browsing.record(20 * MS * g.limit(), now, 0);
      }
      now += 100 * MS;
      g.tick(now);
      assertThat(30 + 20 * g.limit())
          .as("a purchase's execution (ms) at the limit after %d windows", w)
          .isLessThanOrEqualTo(150);
    }
    assertThat(g.limit()).as("room for the browsing pages").isGreaterThanOrEqualTo(3);
  }

  /** {@code windows} windows of 100 ms, each with one request executing {@code millis}. */
  private void executeOnePerWindow(
      ConcurrencyGroup g, ConcurrencyGroup.Partition p, int windows, long millis) {
    for (int w = 0; w < windows; w++) {
      p.record(millis * MS, now, 0);
      now += 100 * MS;
      g.tick(now);
    }
  }

  @Test
  void aRequestWaitsNoLongerThanItsTargetLeavesForItsClassesMedianExecution() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    assertThat(buying.waitBoundNanos(75 * MS)).as("before any sample").isEqualTo(75 * MS);
    // Purchases executing in 105 ms (0.7 of the target): one that waited its whole 75 ms
    // would end at 180 ms, 1.2 × its target. It may wait 45 ms (50 when the running median
    // sits a step under).
    executeOnePerWindow(g, buying, 40, 105);
    assertThat(buying.waitBoundNanos(75 * MS)).isBetween(44 * MS, 51 * MS);
    assertThat(buying.waitBoundNanos(120 * MS))
        .as("a longer bound, too")
        .isBetween(44 * MS, 51 * MS);
    // Executions past the target: the wait keeps a quarter of its bound, for the hand-over.
    executeOnePerWindow(g, buying, 40, 200);
    assertThat(buying.waitBoundNanos(75 * MS)).isEqualTo(75 * MS / 4);
    // Fast executions: the class's own bound holds.
    executeOnePerWindow(g, buying, 60, 30);
    assertThat(buying.waitBoundNanos(75 * MS)).isEqualTo(75 * MS);
  }

  /** One request executing {@code millis}, alone in a window that closes for lack of samples. */
  private void executeAloneInAWindow(
      ConcurrencyGroup g, ConcurrencyGroup.Partition p, long millis) {
    p.record(millis * MS, now, 0);
    now += ConcurrencyGroup.LONGEST_WINDOWS * 100 * MS;
    g.tick(now);
  }

  @Test
  void aColdFirstExecutionDoesNotHoldTheWaitBoundAtItsFloor() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition paying = g.partition(buy, 150 * MS, 105 * MS);
    // The first payment runs cold, 1.3 × its target; the next ones 0.4-0.6 × (the session
    // runs' 52-93 ms): their median is half the target, so a payment may wait the other half.
    // Stepped 5 % a sample from the first one, the median was still 1.07 here, and a payment
    // waited the floor, a quarter of its bound, before its refusal lost the purchase.
    for (long millis : new long[] {195, 75, 60, 90, 75}) {
      executeAloneInAWindow(g, paying, millis);
    }
    assertThat(paying.waitBoundNanos(105 * MS)).isBetween(74 * MS, 76 * MS);
    // The median of the first few samples is their middle one: two more cold ones move it
    // to the next sample up, 0.6 (two steps of 5 % from 0.5 would give 0.55).
    executeAloneInAWindow(g, paying, 195);
    executeAloneInAWindow(g, paying, 195);
    assertThat(paying.waitBoundNanos(105 * MS)).isBetween(59 * MS, 61 * MS);
  }

  @Test
  void aClassGoneForFiftyWindowsNoLongerHoldsTheLimitDown() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    for (int w = 0; w < 10; w++) {
      pressedWindow(g, browsing, buying, 300);
    }
    assertThat(g.scale()).isEqualTo(ConcurrencyGroup.MIN_SCALE);
    for (int w = 0; w < ConcurrencyGroup.CLASS_MEMORY_WINDOWS; w++) {
      pressedWindow(g, browsing, buying, 0);
    }
    assertThat(g.scale()).isLessThan(1.0);
    pressedWindow(g, browsing, buying, 0);
    assertThat(g.scale()).isEqualTo(1.0);
  }

  @Test
  void aWaitHeldPastTheClassBoundIsNotCountedAgainstTheLimit() {
    ConcurrencyGroup g = limitOf40();
    ConcurrencyGroup.Partition browsing = g.partition(browse, TARGET, TARGET / 2);
    ConcurrencyGroup.Partition buying = g.partition(buy, 150 * MS, 75 * MS);
    // Purchases of admitted sessions held 100 ms for a permit (past the class's own 75 ms)
    // and executed in 60: 160 ms against 150, but 135 with the wait at the class's bound.
    for (int w = 0; w < 50; w++) {
      pressedWindow(g, browsing, buying, 0);
      buying.record(60 * MS, 160 * MS, now, 0);
    }
    assertThat(g.scale()).isEqualTo(1.0);
    assertThat(buying.missShare()).isZero();

    // Held only to the bound, the same request is late by its execution: a miss.
    for (int w = 0; w < 10; w++) {
      pressedWindow(g, browsing, buying, 0);
      buying.record(80 * MS, 155 * MS, now, 0);
    }
    assertThat(g.scale()).isLessThan(1.0);
    assertThat(buying.missShare()).isGreaterThan(0.1);
  }

  /**
   * Permits pocketed by the stripes while the limit was high count as taken until an acquirer
   * takes them back; the wait queues ask {@link ConcurrencyGroup.Partition#hasRoom} before they
   * hand a permit to a waiter, and nothing in flight means no release to ask again. On the shop
   * started at 4× its capacity the limit fell from 200 to 22 in a second, the four stripes'
   * pockets held more than that, and for 45 s nothing ran while every waiter expired.
   */
  @Test
  void permitsPocketedAtAHigherLimitDoNotKeepWaitersFromAnIdleGroup() {
    ConcurrencyGroup g = GroupLoad.group(200, 200, AdmissionListener.NONE, now);
    ConcurrencyGroup.Partition p = g.partition(browse, TARGET, TARGET / 2);
    for (int stripe = 0; stripe < Stripes.COUNT; stripe++) {
      assertThat(p.tryAcquire(stripe)).isTrue();
      p.release(stripe);
    }
    // Executions at three times the target: the limit is cut window by window.
    while (g.limit() > 2 * LeasedPermits.MAX_BATCH) {
      for (int i = 0; i < ConcurrencyGroup.MIN_SAMPLES; i++) {
        p.record(TARGET * 3, now, 0);
      }
      now += 100 * MS;
      g.tick(now);
    }
    assertThat(g.inFlight()).isZero();
    assertThat(p.hasRoom()).isTrue();
    assertThat(p.tryAcquire(0)).isTrue();
    p.release(0);
  }
}
