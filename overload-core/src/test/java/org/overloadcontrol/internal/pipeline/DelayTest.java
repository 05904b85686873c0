package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.bandwidth.BandwidthTicket;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.testing.Concurrently;

/**
 * {@link Delay}: the bandwidth delay written once for both adapters, on the fake clock and a
 * scheduler the test fires by hand; and its one-actor rule under racing threads.
 */
class DelayTest {

  private static final long DELAY_NANOS = Duration.ofMillis(300).toNanos();

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler timers = new FakeScheduler(ticker);
  private final OverloadRuntime runtime =
      OverloadRuntime.builder(OverloadConfig.of(Map.of()))
          .ticker(ticker)
          .scheduler(timers, "unused")
          .start();
  private final OverloadEngine engine = runtime.engine();

  /** Counts what the delay asked of the adapter. */
  private static final class CountingTarget implements Delay.Target {
    final AtomicInteger ended = new AtomicInteger();
    final AtomicInteger cut = new AtomicInteger();

    @Override
    public void delayEnded() {
      ended.incrementAndGet();
    }

    @Override
    public void cutShort() {
      cut.incrementAndGet();
    }
  }

  private RequestTag tag() {
    return engine.tag(engine.routes().route("e", null), ticker.read());
  }

  private static ShapingDecision delayFor(long nanos) {
    return new ShapingDecision(ShapingDecision.Kind.DELAY, nanos, 0, 0, null, BandwidthTicket.NONE);
  }

  @Test
  void theTimerEndsTheDelayOnceAndOnlyWhenItIsDue() {
    CountingTarget target = new CountingTarget();
    Delay delay = runtime.delay(tag(), delayFor(DELAY_NANOS), target);
    assertThat(runtime.delayedCount()).isEqualTo(1);

    ticker.advance(Duration.ofMillis(299));
    timers.runDue();
    assertThat(target.ended).hasValue(0);

    ticker.advance(Duration.ofMillis(1));
    timers.runDue();
    assertThat(target.ended).hasValue(1);
    assertThat(runtime.delayedCount()).isZero();
    // After the timer nothing else may act: a client leaving now is the later steps' business.
    assertThat(delay.cut(RejectionReason.ABANDONED)).isFalse();
    assertThat(delay.cancel()).isFalse();
    assertThat(target.cut).hasValue(0);
  }

  @Test
  void aClientThatLeavesCutsTheDelayShortAndTheTimerNeverFires() {
    CountingTarget target = new CountingTarget();
    RequestTag tag = tag();
    Delay delay = runtime.delay(tag, delayFor(DELAY_NANOS), target);

    assertThat(delay.cut(RejectionReason.ABANDONED)).isTrue();
    ticker.advance(Duration.ofSeconds(1));
    timers.runDue();

    assertThat(target.cut).hasValue(1);
    assertThat(target.ended).hasValue(0);
    assertThat(tag.reason()).isEqualTo(RejectionReason.ABANDONED);
    assertThat(timers.pendingOneShots()).isZero();
  }

  @Test
  void theStopCutsEveryDelayShortAndOneStartedAfterItAtOnce() {
    CountingTarget first = new CountingTarget();
    CountingTarget second = new CountingTarget();
    RequestTag tag = tag();
    runtime.delay(tag, delayFor(DELAY_NANOS), first);
    runtime.delay(tag(), delayFor(DELAY_NANOS), second);

    runtime.shutdown();

    assertThat(first.cut).hasValue(1);
    assertThat(second.cut).hasValue(1);
    assertThat(tag.reason()).isEqualTo(RejectionReason.SHUTDOWN);
    CountingTarget late = new CountingTarget();
    runtime.delay(tag(), delayFor(DELAY_NANOS), late);
    assertThat(late.cut).hasValue(1);
    ticker.advance(Duration.ofSeconds(1));
    timers.runDue();
    assertThat(first.ended.get() + second.ended.get() + late.ended.get()).isZero();
    assertThat(runtime.delayedCount()).isZero();
  }

  @Test
  void theTimerAClientAndTheStopRacingLeaveEachDelayExactlyOneActor() throws Exception {
    int requests = 2_000;
    CountingTarget[] targets = new CountingTarget[requests];
    Delay[] delays = new Delay[requests];
    for (int i = 0; i < requests; i++) {
      targets[i] = new CountingTarget();
      delays[i] = runtime.delay(tag(), delayFor(DELAY_NANOS), targets[i]);
    }
    ticker.advance(Duration.ofMillis(300));
    AtomicInteger next = new AtomicInteger();
    AtomicInteger cancelled = new AtomicInteger();
    // Four threads take turns: the timer, a leaving client, the container, the stop.
    Concurrently.run(
        4,
        1,
        () -> {
          int role = next.getAndIncrement();
          for (int i = 0; i < requests; i++) {
            switch (role) {
              case 0 -> timers.runDue();
              case 1 -> delays[i].cut(RejectionReason.ABANDONED);
              case 2 -> {
                if (delays[i].cancel()) {
                  cancelled.incrementAndGet();
                }
              }
              default -> runtime.shutdown();
            }
          }
        });

    int acted = cancelled.get();
    for (CountingTarget t : targets) {
      assertThat(t.ended.get() + t.cut.get()).isLessThanOrEqualTo(1);
      acted += t.ended.get() + t.cut.get();
    }
    assertThat(acted).isEqualTo(requests);
    assertThat(runtime.delayedCount()).isZero();
  }
}
