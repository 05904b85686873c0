package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A request that waited for its permit waits until it runs: the time its container took to
 * dispatch it after the hand-over is wait, not execution, so a concurrency limit is not cut
 * for the container's own queue. Nor is the hand-over the execution of the request that
 * released the permit.
 */
class DispatchWaitTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  private final FakeTicker ticker = new FakeTicker();
  private final List<LimitRound> rounds = new ArrayList<>();
  private final OverloadEngine engine = engine("1s", "1");

  /** An engine on the fake clock whose rounds go to {@link #rounds}. */
  private OverloadEngine engine(String target, String maxLimit) {
    return OverloadEngine.builder(
            OverloadConfig.of(
                Map.of(
                    "endpoints.e.target",
                    target,
                    "admission.controller",
                    "concurrency",
                    "admission.maxLimit",
                    maxLimit,
                    "queue.permits",
                    "100")))
        .ticker(ticker)
        .scheduler(new FakeScheduler(ticker))
        .admissionListener(
            new AdmissionListener() {
              @Override
              public void onLimitRound(LimitRound round) {
                rounds.add(round);
              }
            })
        .build();
  }

  private RequestTag arrive() {
    return engine.tag(engine.routes().route("e", NONE), ticker.read());
  }

  /** The one request the limit of 1 admits, running. */
  private RequestTag admitAndRun() {
    RequestTag holder = arrive();
    assertThat(engine.arrive(holder)).isEqualTo(Decision.ADMIT);
    engine.running(holder);
    return holder;
  }

  /** A request that waits for the permit; {@code onResumed} runs when it is handed over. */
  private RequestTag queue(Runnable onResumed) {
    RequestTag waiter = arrive();
    assertThat(engine.arrive(waiter)).isEqualTo(Decision.WAIT);
    assertThat(
            engine.enqueue(
                waiter,
                new Waiter.Listener() {
                  @Override
                  public void resumed(Waiter w) {
                    onResumed.run();
                  }

                  @Override
                  public void expired(Waiter w) {}
                }))
        .isTrue();
    return waiter;
  }

  @Test
  void theDispatchAfterTheHandOverIsWaitNotExecution() {
    RequestTag holder = admitAndRun();
    RequestTag waiter = queue(() -> {});

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
    engine.endpoint("e").concurrencyGroup().tick(ticker.read());
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(2);
    assertThat(rounds.get(0).p90OfTarget()).isLessThan(0.06);
  }

  @Test
  void handingThePermitOverIsNotTheReleasingRequestsExecution() {
    RequestTag holder = admitAndRun();
    // The container dispatches the waiter on the releasing thread, slowly: a cold JVM on
    // saturated cores, the wait queues' lock convoyed.
    RequestTag waiter = queue(() -> ticker.advance(Duration.ofMillis(800)));

    ticker.advance(Duration.ofMillis(50));
    engine.settle(holder, Outcome.COMPLETED, 0);
    engine.running(waiter);
    ticker.advance(Duration.ofMillis(50));
    engine.settle(waiter, Outcome.COMPLETED, 0);

    ticker.advance(Duration.ofSeconds(2));
    engine.endpoint("e").concurrencyGroup().tick(ticker.read());
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
  private LimitRound twoHeldThenTwoHandedOver(Duration handOver) {
    OverloadEngine twoPermits = engine("100ms", "2");
    List<RequestTag> held = new ArrayList<>();
    List<RequestTag> waiting = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      RequestTag tag = twoPermits.tag(twoPermits.routes().route("e", NONE), ticker.read());
      assertThat(twoPermits.arrive(tag)).isEqualTo(Decision.ADMIT);
      twoPermits.running(tag);
      held.add(tag);
    }
    for (int i = 0; i < 2; i++) {
      RequestTag tag = twoPermits.tag(twoPermits.routes().route("e", NONE), ticker.read());
      assertThat(twoPermits.arrive(tag)).isEqualTo(Decision.WAIT);
      assertThat(
              twoPermits.enqueue(
                  tag,
                  new Waiter.Listener() {
                    @Override
                    public void resumed(Waiter w) {}

                    @Override
                    public void expired(Waiter w) {}
                  }))
          .isTrue();
      waiting.add(tag);
    }
    ticker.advance(Duration.ofMillis(150));
    held.forEach(t -> twoPermits.settle(t, Outcome.COMPLETED, 0));
    ticker.advance(handOver);
    waiting.forEach(twoPermits::running);
    ticker.advance(Duration.ofMillis(150));
    waiting.forEach(t -> twoPermits.settle(t, Outcome.COMPLETED, 0));
    ticker.advance(Duration.ofSeconds(2));
    twoPermits.endpoint("e").concurrencyGroup().tick(ticker.read());
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(4);
    return rounds.get(0);
  }

  @Test
  void aRequestAdmittedAtOnceKeepsNoWait() {
    RequestTag tag = arrive();
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    ticker.advance(Duration.ofMillis(30));
    engine.running(tag);
    engine.settle(tag, Outcome.COMPLETED, 0);
    assertThat(tag.waited()).isZero();
  }
}
