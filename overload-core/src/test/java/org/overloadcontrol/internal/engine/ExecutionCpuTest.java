package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * A sampled execution's CPU time: read by {@link OverloadEngine#running} and at the completion
 * on the same thread, on a CPU clock whose per-thread readings the test moves by hand. The
 * group keeps exactly what ran in between; a completion on another thread, or one without
 * {@code running}, records nothing.
 */
class ExecutionCpuTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  /** A thread CPU clock per thread that only {@link #burn} moves. */
  static final class HandCpuClock implements CpuClock {
    private static final long START = 5_000_000_000L;
    private final Map<Thread, Long> threads = new ConcurrentHashMap<>();

    void burn(long nanos) {
      threads.merge(Thread.currentThread(), START + nanos, (was, added) -> was + nanos);
    }

    @Override
    public long threadNanos() {
      return threads.getOrDefault(Thread.currentThread(), START);
    }

    @Override
    public long processNanos() {
      return -1;
    }

    @Override
    public int cores() {
      return 1;
    }
  }

  private final FakeTicker ticker = new FakeTicker();
  private final HandCpuClock cpu = new HandCpuClock();
  private final OverloadEngine engine =
      OverloadEngine.builder(
              OverloadConfig.of(
                  Map.of("endpoints.e.target", "1s", "admission.controller", "concurrency")))
          .ticker(ticker)
          .scheduler(new FakeScheduler(ticker))
          .cpuClock(cpu)
          .build();

  private RequestTag admitted() {
    RequestTag tag = engine.tag(engine.route("e", NONE), ticker.read());
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    return tag;
  }

  private ConcurrencyGroup group() {
    return engine.endpoint("e").concurrencyGroup();
  }

  @Test
  void theCpuBetweenRunningAndTheCompletionIsRecorded() {
    cpu.burn(7_000_000L); // before the execution: not counted
    RequestTag tag = admitted();
    engine.running(tag);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isTrue();
    cpu.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    assertThat(engine.complete(tag, Outcome.COMPLETED, 0)).isTrue();

    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isEqualTo(3_000_000L);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
  }

  @Test
  void withoutRunningNothingIsRecorded() {
    RequestTag tag = admitted();
    cpu.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    engine.complete(tag, Outcome.COMPLETED, 0);
    assertThat(group().executionsMeasured()).isZero();
  }

  @Test
  void aCompletionOnAnotherThreadRecordsNothingAndTheStartMatchesNoOtherRequest() throws Exception {
    RequestTag moved = admitted();
    engine.running(moved);
    cpu.burn(3_000_000L);
    ticker.advance(Duration.ofMillis(20));
    CompletableFuture.runAsync(() -> engine.complete(moved, Outcome.COMPLETED, 0)).get();
    assertThat(group().executionsMeasured()).isZero();

    // The next request on this thread completes here without running: the start left by the
    // one that moved is not taken for its own.
    RequestTag next = admitted();
    cpu.burn(1_000_000L);
    engine.complete(next, Outcome.COMPLETED, 0);
    assertThat(group().executionsMeasured()).isZero();

    RequestTag third = admitted();
    engine.running(third);
    cpu.burn(2_000_000L);
    ticker.advance(Duration.ofMillis(20));
    engine.complete(third, Outcome.COMPLETED, 0);
    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isEqualTo(2_000_000L);
  }

  @Test
  void aRequestThatNeverRanRecordsNothing() {
    RequestTag tag = admitted();
    ticker.advance(Duration.ofMillis(20));
    engine.complete(tag, Outcome.EXPIRED, 0);
    assertThat(group().executionsMeasured()).isZero();
  }

  @Test
  void theCountsOutliveTheGroupsRounds() {
    for (int i = 0; i < 3; i++) {
      RequestTag tag = admitted();
      engine.running(tag);
      cpu.burn(1_000_000L);
      ticker.advance(Duration.ofSeconds(2));
      engine.complete(tag, Outcome.COMPLETED, 0);
      group().tick(ticker.read());
    }
    assertThat(group().executionsMeasured()).isEqualTo(3);
    assertThat(group().executionCpuNanos()).isEqualTo(3_000_000L);
  }
}
