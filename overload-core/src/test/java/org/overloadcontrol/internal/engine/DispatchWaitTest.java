package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.base.Outcome;

/**
 * A request that waited for its permit waits until it runs: the time its container took to
 * dispatch it after the hand-over is wait, not execution, so a concurrency limit is not cut
 * for the container's own queue. Nor is the hand-over the execution of the request that
 * released the permit.
 */
class DispatchWaitTest {

  private final LimitedEngine one = new LimitedEngine("1s", "1");
  private final FakeTicker ticker = one.ticker;
  private final List<LimitRound> rounds = one.rounds;
  private final OverloadEngine engine = one.engine;

  @Test
  void theDispatchAfterTheHandOverIsWaitNotExecution() {
    RequestTag holder = one.admitAndRun();
    RequestTag waiter = one.queue(() -> {});

    ticker.advance(Duration.ofMillis(50));
    engine.settle(holder, Outcome.COMPLETED, 0);
    assertThat(waiter.waited()).isEqualTo(Duration.ofMillis(50));
    ticker.advance(Duration.ofMillis(600)); // the container's queue before it runs the waiter
    engine.running(waiter);
    ticker.advance(Duration.ofMillis(20));
    engine.running(waiter); // the application went async again and is dispatched once more
    ticker.advance(Duration.ofMillis(30));
    engine.settle(waiter, Outcome.COMPLETED, 0);

    assertThat(waiter.waited()).isEqualTo(Duration.ofMillis(650));
    ticker.advance(Duration.ofSeconds(2));
    one.closeWindow();
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(2);
    assertThat(rounds.get(0).p90OfTarget()).isLessThan(0.06);
  }

  @Test
  void handingThePermitOverIsNotTheReleasingRequestsExecution() {
    RequestTag holder = one.admitAndRun();
    // The container dispatches the waiter on the releasing thread, slowly: a cold JVM on
    // saturated cores, the wait queues' lock convoyed.
    RequestTag waiter = one.queue(() -> ticker.advance(Duration.ofMillis(800)));

    ticker.advance(Duration.ofMillis(50));
    engine.settle(holder, Outcome.COMPLETED, 0);
    engine.running(waiter);
    ticker.advance(Duration.ofMillis(50));
    engine.settle(waiter, Outcome.COMPLETED, 0);

    ticker.advance(Duration.ofSeconds(2));
    one.closeWindow();
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(2);
    assertThat(rounds.get(0).p90OfTarget()).isLessThan(0.06);
  }

  @Test
  void aWindowWhosePermitsMostlyWaitedForAThreadIsNotCut() {
    LimitRound round = twoHeldThenTwoHandedOver(Duration.ofMillis(400));
    // 600 ms of execution beside 800 ms of hand-over: a cut would not have shortened them.
    assertThat(round.held()).isEqualTo(LimitRound.Held.WAITING_FOR_THREADS);
    assertThat(round.limitAfter()).isGreaterThanOrEqualTo(round.limitBefore());
  }

  @Test
  void theSameWindowWithoutTheHandOverIsCut() {
    LimitRound round = twoHeldThenTwoHandedOver(Duration.ZERO);
    assertThat(round.held()).isEqualTo(LimitRound.Held.NO);
    assertThat(round.limitAfter()).isLessThan(round.limitBefore());
  }

  /**
   * Under a limit of 2, two requests run 150 ms (over a 100 ms target) while two wait; each
   * waiter is dispatched {@code handOver} after the permit is handed to it and runs 150 ms.
   * Returns the window's round.
   */
  private static LimitRound twoHeldThenTwoHandedOver(Duration handOver) {
    LimitedEngine two = new LimitedEngine("100ms", "2");
    List<RequestTag> held = List.of(two.admitAndRun(), two.admitAndRun());
    List<RequestTag> waiting = List.of(two.queue(() -> {}), two.queue(() -> {}));
    two.ticker.advance(Duration.ofMillis(150));
    held.forEach(t -> two.engine.settle(t, Outcome.COMPLETED, 0));
    two.ticker.advance(handOver);
    waiting.forEach(two.engine::running);
    two.ticker.advance(Duration.ofMillis(150));
    waiting.forEach(t -> two.engine.settle(t, Outcome.COMPLETED, 0));
    two.ticker.advance(Duration.ofSeconds(2));
    two.closeWindow();
    assertThat(two.rounds).hasSize(1);
    assertThat(two.rounds.get(0).samples()).isEqualTo(4);
    return two.rounds.get(0);
  }

  @Test
  void aRequestAdmittedAtOnceKeepsNoWait() {
    RequestTag tag = one.arrive();
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    ticker.advance(Duration.ofMillis(30));
    engine.running(tag);
    engine.settle(tag, Outcome.COMPLETED, 0);
    assertThat(tag.waited()).isZero();
  }
}
