package org.overloadcontrol.it.experiments.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.serverlog.ServedRequest;

/**
 * The matrix's figures and bars on hand-made logs: a run of 20 s at 2× a capacity of 100/s with
 * a target of 100 ms, whose requests are laid out so each figure has one right answer.
 */
class CellResultTest {

  private static final long START = 1_000_000_000_000L;
  private static final double TARGET = 0.1;
  private static final double CAPACITY = 100;

  private static long at(double seconds) {
    return START + Math.round(seconds * 1e9);
  }

  /** {@code perSecond} requests sent each second in [from, to), each taking {@code latency}. */
  private static void add(
      List<Attempt> log, double from, double to, int perSecond, double latency, int status) {
    for (double s = from; s < to; s += 1.0 / perSecond) {
      log.add(new Attempt(log.size(), 0, at(s), at(s), at(s + latency), status));
    }
  }

  private static CellResult result(Event event, List<Attempt> log, List<double[]> limits) {
    return CellResult.of(
        event, CAPACITY, TARGET, START, log, List.<ServedRequest>of(), limits, 0, 0);
  }

  @Test
  void goodputCountsOnlyResponsesWithinTheTargetByCompletionTime() {
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 10, 90, 0.05, 200); // within the target: counts
    add(log, 0, 10, 50, 0.5, 200); // late: served, but not goodput
    add(log, 0, 10, 60, 0.001, 503); // refused
    CellResult c = result(Event.coldStart(10), log, List.of());

    assertThat(c.goodput(2, 8)).isCloseTo(0.9, within(0.02));
    assertThat(c.throughput(2, 8)).isCloseTo(1.4, within(0.02));
    assertThat(c.refusedShare(2, 8)).isCloseTo(60.0 / 200, within(0.01));
    assertThat(c.clientP90(2, 8)).isCloseTo(0.5, within(0.001));
  }

  @Test
  void aUserRefusedOnEveryAttemptIsOneUnservedUserButFourRefusedAttempts() {
    List<Attempt> log = new ArrayList<>();
    // Ten users in the window: eight served at once, one served on its second attempt, one
    // refused on its first and its three re-sent attempts.
    for (int u = 0; u < 8; u++) {
      log.add(new Attempt(u, 0, at(3), at(3), at(3.01), 200));
    }
    log.add(new Attempt(8, 0, at(3), at(3), at(3.001), 503));
    log.add(new Attempt(8, 1, at(3.001), at(3.001), at(3.01), 200));
    for (int a = 0; a < 4; a++) {
      log.add(new Attempt(9, a, at(3 + a * 0.001), at(3 + a * 0.001), at(3.001 + a * 0.001), 503));
    }
    // A user whose first attempt came before the window is not one of its users.
    log.add(new Attempt(10, 0, at(1), at(1), at(1.001), 503));
    CellResult c = result(Event.coldStart(10), log, List.of());

    assertThat(c.refusedShare(2, 8)).isCloseTo(5.0 / 14, within(1e-9));
    assertThat(c.unservedShare(2, 8)).isCloseTo(1.0 / 10, within(1e-9));
  }

  @Test
  void refusalsAreCountedByTheReasonTheServerLogGivesAndSplitByWhetherTheyWaited() {
    List<ServedRequest> server =
        List.of(
            served(1, 0.0005, 503, "queue-full"),
            served(2, 0.0009, 503, "queue-full"),
            served(3, 0.4, 503, "queue-full"),
            served(4, 0.2, 503, "expired"),
            served(5, 0.05, 200, null),
            served(6, 0.001, 503, null)); // another guard's refusal: no reason told
    CellResult c =
        CellResult.of(
            Event.coldStart(10), CAPACITY, TARGET, START, List.of(), server, List.of(), 0, 0);

    assertThat(c.refusalsByReason()).containsOnlyKeys("expired", "queue-full");
    assertThat(c.refusalsByReason().get("queue-full")).containsExactly(3, 2);
    assertThat(c.refusalsByReason().get("expired")).containsExactly(1, 0);
  }

  private static ServedRequest served(double at, double seconds, int status, String rejection) {
    return new ServedRequest(
        at(at), at(at + seconds), "/work", status, false, ServedRequest.NO_DEADLINE, 0, rejection);
  }

  @Test
  void theDelaysBeforeTheServerSplitIntoTheGeneratorsAndTheContainersQueue() {
    // Due each 10 ms over 2 s; the generator puts each on the wire 30 ms late (60 ms for one in
    // ten) and the container begins to read it 200 ms after it was due.
    List<Attempt> log = new ArrayList<>();
    List<ServedRequest> server = new ArrayList<>();
    long timeout = MatrixClient.TIMEOUT_MILLIS * 1_000_000L;
    for (int i = 0; i < 200; i++) {
      double due = i * 0.01;
      double sendDelay = i % 10 == 9 ? 0.06 : 0.03;
      log.add(new Attempt(i, 0, at(due), at(due + sendDelay), at(due + 0.25), 200));
      server.add(
          new ServedRequest(
              at(due + 0.2), at(due + 0.25), "/work", 200, false, at(due) + timeout, 0, null));
    }
    // One due at 5 s never went to the wire (it failed before): it has no send delay.
    log.add(new Attempt(200, 0, at(5), Attempt.NOT_SENT, at(5.5), Attempt.NO_RESPONSE));
    CellResult c =
        CellResult.of(Event.coldStart(10), CAPACITY, TARGET, START, log, server, List.of(), 0, 0);

    assertThat(c.sendDelayP90(0, 2)).isCloseTo(0.03, within(0.001));
    assertThat(c.sendDelayP90(0.09, 0.1)).isCloseTo(0.06, within(0.001));
    assertThat(c.arrivalDelayP90(0, 2)).isCloseTo(0.2, within(0.001));
    assertThat(c.sendDelayP90(5, 6)).isNaN();
    assertThat(c.arrivalDelayP90(5, 6)).isNaN();
  }

  @Test
  void theLimitBarHoldsTheLowestLimitOfEachSecondAgainstHalfLittlesLaw() {
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 10, 100, 0.05, 200); // 100/s within a 100 ms target: floor 100 × 0.1 / 2 = 5
    List<double[]> limits = new ArrayList<>();
    for (double s = 0; s < 10; s += 0.1) {
      // 8 everywhere but one dip to 4 during second 7.
      double limit = s >= 7.3 && s < 7.5 ? 4 : 8;
      limits.add(new double[] {at(s), limit});
    }
    CellResult c = result(Event.coldStart(10), log, limits);

    assertThat(c.limitFloor(6, 7)).isCloseTo(5, within(0.1));
    double[] bar = c.limitBar();
    assertThat(bar[1]).isEqualTo(5); // seconds 5 to 10
    assertThat(bar[0]).isEqualTo(4); // all but second 7
    assertThat(bar[2]).isCloseTo(4 / 5.0, within(0.02));
  }

  @Test
  void aSecondWithoutASampleIsLeftOutOfTheLimitBar() {
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 10, 100, 0.05, 200);
    List<double[]> limits = new ArrayList<>();
    for (int tenth = 0; tenth < 100; tenth++) {
      if (tenth < 60 || tenth >= 70) {
        limits.add(new double[] {at(tenth / 10.0), 8});
      }
    }
    double[] bar = result(Event.coldStart(10), log, limits).limitBar();
    assertThat(bar).isNotNull();
    assertThat(bar[0]).isEqualTo(4);
    assertThat(bar[1]).isEqualTo(4);
  }

  @Test
  void noLimitMeansNoLimitBar() {
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 10, 100, 0.05, 200);
    List<double[]> limits = List.of(new double[] {at(6), Double.NaN});
    assertThat(result(Event.coldStart(10), log, limits).limitBar()).isNull();
  }

  @Test
  void recoveryIsTimedFromTheStallsEndToTheFirstWindowBackAtNinetyPercent() {
    // Stall at 8 s (Event.stall(20)), ends at 9 s; goodput back at full from 10.5 s.
    Event stall = Event.stall(20);
    assertThat(stall.stallEndSeconds()).isEqualTo(9);
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 8, 100, 0.05, 200);
    add(log, 8, 10.5, 100, 5, 200); // stuck behind the stall: late
    add(log, 10.5, 20, 100, 0.05, 200);
    CellResult c = result(stall, log, List.of());

    assertThat(c.recoverySeconds()).isCloseTo(2.5, within(0.3));
    assertThat(c.recovered()).isTrue();
  }

  @Test
  void aRecoveryAfterThreeSecondsMissesTheBar() {
    Event stall = Event.stall(20);
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 8, 100, 0.05, 200);
    add(log, 8, 13, 100, 5, 200);
    add(log, 13, 20, 100, 0.05, 200);
    CellResult c = result(stall, log, List.of());

    assertThat(c.recoverySeconds()).isGreaterThan(3);
    assertThat(c.recovered()).isFalse();
  }

  @Test
  void stepBarsAskForFewRefusalsBelowCapacityAndTheTargetAtThreeTimesIt() {
    Event steps = Event.steps(8);
    List<Attempt> log = new ArrayList<>();
    add(log, 0, 8, 50, 0.05, 200);
    add(log, 8, 16, 100, 0.05, 200);
    add(log, 16, 24, 100, 0.2, 200); // 3×: served late
    add(log, 16, 24, 200, 0.001, 503);
    add(log, 24, 32, 50, 0.05, 200);
    CellResult c = result(steps, log, List.of());

    assertThat(c.step(steps.steps().get(0)).bars(TARGET)).containsExactly("refused ≤ 1 %: met");
    assertThat(c.step(steps.steps().get(2)).bars(TARGET))
        .containsExactly("client p90 ≤ 1.1× target: **missed**", "goodput ≥ 0.9: **missed**");
  }

  @Test
  void retryAfterIsReadInSecondsAndDefaultsWhenAbsentOrADate() {
    assertThat(MatrixClient.retryAfterNanos("2")).isEqualTo(2_000_000_000L);
    assertThat(MatrixClient.retryAfterNanos(null))
        .isEqualTo(ClientKind.WITHOUT_RETRY_AFTER.toNanos());
    assertThat(MatrixClient.retryAfterNanos("Wed, 21 Oct 2015 07:28:00 GMT"))
        .isEqualTo(ClientKind.WITHOUT_RETRY_AFTER.toNanos());
  }
}
