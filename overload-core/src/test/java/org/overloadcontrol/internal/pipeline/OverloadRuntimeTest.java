package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * {@link OverloadRuntime}: everything the adapters start is started together and stopped
 * together, on a scheduler that records what was scheduled and cancelled (no thread, no clock).
 */
class OverloadRuntimeTest {

  private final FakeTicker ticker = new FakeTicker();
  private final RecordingScheduler timers = new RecordingScheduler();

  private static final Map<String, String> BANDWIDTH =
      Map.of(
          "bandwidth.total", "100KB/s",
          "bandwidth.groups.all.share", "100%",
          "bandwidth.groups.all.match.client", "0.0.0.0/0");

  private OverloadRuntime.Builder builder(Map<String, String> keys) {
    return OverloadRuntime.builder(OverloadConfig.of(keys))
        .ticker(ticker)
        .scheduler(timers, "unused");
  }

  @Test
  void theBandwidthManagerRunsOnTheGivenTimersAndStopsWithTheRuntime() {
    OverloadRuntime runtime = builder(BANDWIDTH).start();
    assertThat(runtime.bandwidth()).isNotNull();
    assertThat(runtime.scheduler()).isSameAs(timers);
    assertThat(runtime.virtualQueue().enabled()).isFalse();
    assertThat(timers.periodic()).isNotEmpty();

    runtime.close();

    assertThat(timers.livePeriodic()).isZero();
  }

  @Test
  void theConfiguredEndpointsExistBeforeTheirFirstRequest() {
    OverloadRuntime runtime =
        builder(Map.of("endpoints.checkout.target", "300ms", "queue.permits", "2")).start();
    assertThat(runtime.engine().endpoints()).extracting(e -> e.name()).containsExactly("checkout");
    runtime.close();
  }

  @Test
  void withoutBandwidthSharesThereIsNoShaperAndNoManagerTask() {
    OverloadRuntime runtime = builder(Map.of()).start();
    assertThat(runtime.bandwidth()).isNull();
    int periodic = timers.periodic().size();
    runtime.close();
    assertThat(timers.periodic()).hasSize(periodic);
    assertThat(timers.livePeriodic()).isZero();
  }

  @Test
  void aPartThatCannotStartStopsWhatStartedBeforeIt() {
    Map<String, String> keys = new HashMap<>(BANDWIDTH);
    keys.put("queue.permits", "2");
    keys.put("virtualQueue.enabled", "true");
    keys.put("virtualQueue.paths", "/checkout");
    keys.put("virtualQueue.capacity", "10");
    keys.put("virtualQueue.keyFile", "/WEB-INF/missing.keys");

    assertThatThrownBy(() -> builder(keys).webAppResources(path -> null).start())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.keyFile");

    // The engine's periodic task was scheduled before the virtual queue failed, and cancelled.
    assertThat(timers.periodic()).isNotEmpty();
    assertThat(timers.livePeriodic()).isZero();
  }

  @Test
  void shutdownExpiresAWaitingRequestOnceAndIsSafeTwice() {
    OverloadRuntime runtime = builder(Map.of("queue.permits", "1")).start();
    OverloadEngine engine = runtime.engine();
    RequestTag running = engine.tag(engine.routes().route("e", null), ticker.read());
    assertThat(engine.arrive(running)).isEqualTo(Decision.ADMIT);
    RequestTag waiting = engine.tag(engine.routes().route("e", null), ticker.read());
    assertThat(engine.arrive(waiting)).isEqualTo(Decision.WAIT);
    AtomicInteger expired = new AtomicInteger();
    assertThat(
            engine.enqueue(
                waiting,
                new Waiter.Listener() {
                  @Override
                  public void resumed(Waiter waiter) {
                    throw new AssertionError("resumed after shutdown");
                  }

                  @Override
                  public void expired(Waiter waiter) {
                    expired.incrementAndGet();
                  }
                }))
        .isTrue();

    runtime.shutdown();
    runtime.close();

    assertThat(expired).hasValue(1);
    assertThat(timers.livePeriodic()).isZero();
    // The running request still reports its outcome after the stop.
    assertThat(engine.settle(running, Outcome.COMPLETED, -1L)).isTrue();
  }

  /** Records tasks; runs none. */
  private static final class RecordingScheduler implements Scheduler {
    private final List<boolean[]> periodic = new ArrayList<>();

    @Override
    public synchronized Cancellable schedule(Runnable task, long delayNanos) {
      return () -> {};
    }

    @Override
    public synchronized Cancellable scheduleAtFixedRate(Runnable task, long periodNanos) {
      boolean[] cancelled = new boolean[1];
      periodic.add(cancelled);
      return () -> cancelled[0] = true;
    }

    synchronized List<boolean[]> periodic() {
      return List.copyOf(periodic);
    }

    synchronized long livePeriodic() {
      return periodic.stream().filter(c -> !c[0]).count();
    }
  }
}
