package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A waiter handed a permit holds it until its container runs it: while a class's requests find
 * no permit faster than one per such dispatch, a freed permit is taken sooner by a new request
 * than by a waiter, and a request that finds none is refused at once instead of suspended.
 */
class HandOverCostTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  private final FakeTicker ticker = new FakeTicker();
  private final OverloadEngine engine =
      OverloadEngine.builder(
              OverloadConfig.of(
                  Map.of(
                      "endpoints.e.target", "100ms",
                      "admission.controller", "concurrency",
                      "admission.maxLimit", "1",
                      "queue.permits", "100")))
          .ticker(ticker)
          .scheduler(new FakeScheduler(ticker))
          .build();

  private RequestTag arrive() {
    return engine.tag(engine.routes().route("e", NONE), ticker.read());
  }

  private void enqueue(RequestTag waiter) {
    assertThat(
            engine.enqueue(
                waiter,
                new Waiter.Listener() {
                  @Override
                  public void resumed(Waiter w) {}

                  @Override
                  public void expired(Waiter w) {}
                }))
        .isTrue();
  }

  /**
   * Hands the limit's one permit on four times, each waiter run {@code dispatch} after its
   * hand-over; the last waiter keeps it.
   */
  private void handOver(Duration dispatch) {
    RequestTag holder = arrive();
    assertThat(engine.arrive(holder)).isEqualTo(Decision.ADMIT);
    engine.running(holder);
    for (int i = 0; i < 4; i++) {
      RequestTag next = arrive();
      assertThat(engine.arrive(next)).isEqualTo(Decision.WAIT);
      enqueue(next);
      ticker.advance(Duration.ofMillis(20));
      engine.settle(holder, Outcome.COMPLETED, 0);
      ticker.advance(dispatch);
      engine.running(next);
      holder = next;
    }
  }

  /**
   * {@code perSecond} requests a second for {@code seconds} that find the permit taken; one that
   * may wait is suspended and its client leaves. Returns how many were refused at once.
   */
  private int withoutPermit(int perSecond, int seconds) {
    int refused = 0;
    for (int i = 0; i < perSecond * seconds; i++) {
      RequestTag t = arrive();
      if (engine.arrive(t) == Decision.WAIT) {
        enqueue(t);
        assertThat(engine.abandon(t)).isTrue();
        engine.settle(t, Outcome.EXPIRED, 0);
      } else {
        assertThat(t.reason()).isEqualTo(RejectionReason.QUEUE_FULL);
        engine.settle(t, Outcome.REJECTED, 0);
        refused++;
      }
      ticker.advance(Duration.ofNanos(1_000_000_000L / perSecond));
    }
    return refused;
  }

  @Test
  void requestsFindingNoPermitFasterThanOnePerDispatchAreRefusedInsteadOfSuspended() {
    handOver(Duration.ofMillis(30));

    // 100 a second against dispatches of 30 ms: three arrivals per dispatch. Until a second
    // has measured the rate they wait; then nobody does.
    assertThat(withoutPermit(100, 1)).isLessThan(50);
    assertThat(withoutPermit(100, 1)).isEqualTo(100);

    // Ten a second: one per 100 ms, slower than a dispatch. After a second at that rate the
    // queues take them again.
    withoutPermit(10, 1);
    assertThat(withoutPermit(10, 1)).isZero();
  }

  @Test
  void requestsFindingNoPermitSlowerThanOnePerDispatchWait() {
    handOver(Duration.ofMillis(30));

    assertThat(withoutPermit(20, 3)).isZero();
  }

  @Test
  void fastDispatchesKeepTheQueuesUnderManyRequests() {
    handOver(Duration.ofMillis(1));

    assertThat(withoutPermit(500, 3)).isZero();
  }
}
