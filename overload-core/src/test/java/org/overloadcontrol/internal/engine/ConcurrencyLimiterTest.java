package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.base.SessionRole;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.limiter.Limiter;
import org.overloadcontrol.limiter.Permit;

/**
 * The concurrency limit through the admission SPI, on the fake clock: under the limit {@link
 * Limiter#acquire} gives the route's shared permit, at the limit it answers that the request
 * may wait, a release hands the permit to the waiter, and a browsing request past what can be
 * served in time may not wait.
 */
class ConcurrencyLimiterTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);

  /** Target 1 s, a limit of one permit, the controller named by {@code keys} if any. */
  private OverloadEngine engine(String... keys) {
    Map<String, String> m = new HashMap<>();
    m.put("endpoints.browse.target", "1s");
    m.put("admission.maxLimit", "1");
    m.put("admission.initialLimit", "1");
    for (int i = 0; i < keys.length; i += 2) {
      m.put(keys[i], keys[i + 1]);
    }
    return OverloadEngine.builder(OverloadConfig.of(m)).ticker(ticker).scheduler(scheduler).build();
  }

  private static EndpointClass route(OverloadEngine engine) {
    return engine.routes().route("browse", TestRequest.get("/browse", "127.0.0.1"));
  }

  /** Queues a request of the route for its permit; {@code resumed} hears the hand-over. */
  private static Waiter await(EndpointClass route, List<Waiter> resumed) {
    return route.execution.enqueue(
        route.requestClass(),
        0L,
        new Waiter.Listener() {
          @Override
          public void resumed(Waiter w) {
            resumed.add(w);
          }

          @Override
          public void expired(Waiter w) {}
        });
  }

  @Test
  void theKeyChoosesItAndItIsTheDefault() {
    assertThat(route(engine()).limiter).isInstanceOf(ConcurrencyLimiter.class);
    assertThat(route(engine("admission.controller", "concurrency")).limiter)
        .isInstanceOf(ConcurrencyLimiter.class);
    assertThat(route(engine("admission.controller", "rate")).limiter)
        .isInstanceOf(TokenBucketLimiter.class);
  }

  @Test
  void itAdmitsUnderTheLimitSaysWaitAtItAndHandsAReleaseToTheWaiter() {
    EndpointClass route = route(engine());
    Limiter limiter = route.limiter;
    int stripe = 0;

    Permit first = limiter.acquire(ticker.read(), stripe);
    assertThat(first).isSameAs(route.execution).isSameAs(limiter);
    assertThat(route.concurrency().inFlightNow()).isEqualTo(1);

    Permit second = limiter.acquire(ticker.read(), stripe);
    assertThat(second).isSameAs(ExecutionPermit.WAIT);
    assertThat(route.execution.mayWait(SessionRole.NONE)).isTrue();
    List<Waiter> resumed = new ArrayList<>();
    Waiter waiter = await(route, resumed);
    assertThat(waiter.waiting()).isTrue();
    assertThat(resumed).isEmpty();

    // The release hands the permit over: the waiter holds it, nothing is free.
    ((ExecutionPermit) first).release(stripe);
    assertThat(resumed).containsExactly(waiter);
    assertThat(route.concurrency().inFlightNow()).isEqualTo(1);
    assertThat(limiter.acquire(ticker.read(), stripe)).isSameAs(ExecutionPermit.WAIT);

    route.execution.release(stripe);
    assertThat(route.concurrency().inFlightNow()).isZero();
    assertThat(limiter.acquire(ticker.read(), stripe)).isSameAs(route.execution);
  }

  @Test
  void aBrowsingRequestPastWhatCanBeServedInTimeMayNotWait() {
    OverloadEngine engine = engine();
    // Sixty requests one at a time, each executing in 0.7 of the target: one permit frees
    // every 0.7 s, and a waiter may wait 0.3 s.
    for (int i = 0; i < 60; i++) {
      RequestTag tag = engine.tag(route(engine), ticker.read());
      assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
      ticker.advance(Duration.ofMillis(700));
      engine.settle(tag, Outcome.COMPLETED, 0);
      scheduler.runDue();
    }
    EndpointClass route = route(engine);
    Limiter limiter = route.limiter;
    assertThat(limiter.acquire(ticker.read(), 0)).isSameAs(route.execution);
    assertThat(limiter.acquire(ticker.read(), 0)).isSameAs(ExecutionPermit.WAIT);
    assertThat(route.execution.mayWait(SessionRole.NONE)).isTrue();
    List<Waiter> resumed = new ArrayList<>();
    await(route, resumed);

    // One waiter is all the room: the next browsing request is refused, an admitted
    // session's waits whatever the count.
    assertThat(limiter.acquire(ticker.read(), 0)).isSameAs(ExecutionPermit.WAIT);
    assertThat(route.execution.mayWait(SessionRole.NONE)).isFalse();
    assertThat(route.execution.mayWait(SessionRole.ADMITTED)).isTrue();

    route.execution.release(0);
    assertThat(resumed).hasSize(1);
    route.execution.release(0);
    assertThat(route.execution.mayWait(SessionRole.NONE)).isTrue();
  }
}
