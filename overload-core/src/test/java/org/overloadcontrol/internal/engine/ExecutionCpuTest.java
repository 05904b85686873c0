package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A sampled execution's CPU time: read by {@link OverloadEngine#running} and at the completion
 * on the same thread, on a CPU clock whose per-thread readings the test moves by hand and
 * records. The two readings span exactly what ran in between; a completion on another thread,
 * or one without {@code running}, reads nothing, so records nothing.
 */
class ExecutionCpuTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  /** A CPU time per thread that only {@link #burn} moves. */
  static final class HandThreadClock {
    private static final long START = 5_000_000_000L;
    private final Map<Thread, Long> threads = new ConcurrentHashMap<>();

    void burn(long nanos) {
      threads.merge(Thread.currentThread(), START + nanos, (was, added) -> was + nanos);
    }

    long read() {
      return threads.getOrDefault(Thread.currentThread(), START);
    }
  }

  private final FakeTicker ticker = new FakeTicker();
  private final HandThreadClock hand = new HandThreadClock();
  private final RecordingCpuClock cpu = new RecordingCpuClock(hand::read);
  private final OverloadEngine engine = engine(cpu);

  /** Endpoint {@code e}, target 1 s, under a concurrency limit, read on {@code clock}. */
  private OverloadEngine engine(CpuClock clock, String... keys) {
    Map<String, String> m = new HashMap<>();
    m.put("endpoints.e.target", "1s");
    m.put("admission.controller", "concurrency");
    for (int i = 0; i < keys.length; i += 2) {
      m.put(keys[i], keys[i + 1]);
    }
    return OverloadEngine.builder(OverloadConfig.of(m))
        .ticker(ticker)
        .scheduler(new FakeScheduler(ticker))
        .cpuClock(clock)
        .build();
  }

  private RequestTag admitted() {
    RequestTag tag = engine.tag(engine.routes().route("e", NONE), ticker.read());
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    return tag;
  }

  @Test
  void theCpuBetweenRunningAndTheCompletionIsRecorded() {
    hand.burn(7_000_000L); // before the execution: not counted
    RequestTag tag = admitted();
    engine.running(tag);
    assertThat(cpu.since(0)).as("the start").singleElement().matches(r -> r.onThisThread());
    hand.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    assertThat(engine.settle(tag, Outcome.COMPLETED, 0)).isTrue();

    assertThat(RecordingCpuClock.measuredBetween(cpu.since(0))).isEqualTo(3_000_000L);
    assertThat(cpu.since(0).get(1).onThisThread()).isTrue();
  }

  @Test
  void handingThePermitOverIsNotTheReleasingRequestsCpu() {
    OverloadEngine one = engine(cpu, "admission.maxLimit", "1", "queue.permits", "100");
    RequestTag holder = one.tag(one.routes().route("e", NONE), ticker.read());
    assertThat(one.arrive(holder)).isEqualTo(Decision.ADMIT);
    one.running(holder);
    RequestTag waiter = one.tag(one.routes().route("e", NONE), ticker.read());
    assertThat(one.arrive(waiter)).isEqualTo(Decision.WAIT);
    // The container dispatches the waiter on the releasing thread, at a cost in CPU.
    assertThat(
            one.enqueue(
                waiter,
                new Waiter.Listener() {
                  @Override
                  public void resumed(Waiter w) {
                    hand.burn(5_000_000L);
                  }

                  @Override
                  public void expired(Waiter w) {}
                }))
        .isTrue();

    hand.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    one.settle(holder, Outcome.COMPLETED, 0);

    assertThat(RecordingCpuClock.measuredBetween(cpu.since(0))).isEqualTo(3_000_000L);
  }

  @Test
  void withoutRunningNothingIsRead() {
    RequestTag tag = admitted();
    hand.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    engine.settle(tag, Outcome.COMPLETED, 0);
    assertThat(cpu.count()).isZero();
  }

  @Test
  void aCompletionOnAnotherThreadReadsNothingAndTheStartMatchesNoOtherRequest() throws Exception {
    RequestTag moved = admitted();
    engine.running(moved);
    hand.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    CompletableFuture.runAsync(() -> engine.settle(moved, Outcome.COMPLETED, 0)).get();
    assertThat(cpu.since(0)).as("only the start").singleElement().matches(r -> r.onThisThread());

    // The next request on this thread completes here without running: the start left by the
    // one that moved is not taken for its own.
    RequestTag next = admitted();
    hand.burn(1_000_000L);
    engine.settle(next, Outcome.COMPLETED, 0);
    assertThat(cpu.count()).isEqualTo(1);

    RequestTag third = admitted();
    engine.running(third);
    hand.burn(2_000_000L);
    ticker.advance(Duration.ofMillis(20));
    engine.settle(third, Outcome.COMPLETED, 0);
    assertThat(RecordingCpuClock.measuredBetween(cpu.since(1))).isEqualTo(2_000_000L);
    assertThat(cpu.since(1)).allMatch(r -> r.onThisThread());
  }

  @Test
  void aRequestThatRanButWasNotExecutedReadsOnlyItsStart() {
    RequestTag tag = admitted();
    engine.running(tag);
    hand.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    engine.settle(tag, Outcome.EXPIRED, 0);
    assertThat(cpu.count()).isEqualTo(1);
  }

  @Test
  void eachExecutionIsMeasuredAloneAcrossTheGroupsRounds() {
    for (int i = 0; i < 3; i++) {
      int mark = cpu.count();
      RequestTag tag = admitted();
      engine.running(tag);
      hand.burn(1_000_000L * (i + 1));
      ticker.advance(Duration.ofSeconds(2));
      engine.settle(tag, Outcome.COMPLETED, 0);
      engine.endpoint("e").concurrencyGroup().tick(ticker.read());
      assertThat(RecordingCpuClock.measuredBetween(cpu.since(mark)))
          .isEqualTo(1_000_000L * (i + 1));
    }
    assertThat(cpu.count()).isEqualTo(6);
  }

  @Test
  void aThreadWithoutAClockReadsOnceAndLeavesNoStart() {
    RecordingCpuClock none = new RecordingCpuClock(() -> -1);
    OverloadEngine blind = engine(none);
    RequestTag tag = blind.tag(blind.routes().route("e", NONE), ticker.read());
    assertThat(blind.arrive(tag)).isEqualTo(Decision.ADMIT);
    blind.running(tag);
    ticker.advance(Duration.ofMillis(20));
    blind.settle(tag, Outcome.COMPLETED, 0);
    assertThat(none.count()).as("the start only: the completion looks for none").isEqualTo(1);
  }
}
