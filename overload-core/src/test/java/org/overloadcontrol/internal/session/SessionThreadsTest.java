package org.overloadcontrol.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.testing.Concurrently;

/**
 * New and admitted sessions racing for a small concurrency limit and a small session table:
 * every request gets exactly one outcome, the table never holds more than its bound, and at
 * rest nothing waits and no permit is held.
 */
class SessionThreadsTest {

  @Test
  void everyRequestHasOneOutcomeAndTheTableStaysBounded() throws Exception {
    FakeTicker ticker = new FakeTicker();
    FakeScheduler scheduler = new FakeScheduler(ticker);
    Map<String, String> config =
        new java.util.HashMap<>(
            Map.of(
                "endpoints.a.target",
                "100ms",
                "endpoints.b.target",
                "100ms",
                "endpoints.b.class",
                "buy",
                "classes.buy.rank",
                "5",
                "classes.buy.kind",
                "transaction",
                "admission.maxLimit",
                "4",
                "queue.browsingCapacity",
                "8",
                "queue.transactionCapacity",
                "8"));
    config.putAll(
        Map.of(
            "sessions.enabled",
            "true",
            "sessions.maxSessions",
            "20",
            "sessions.completionPaths",
            "/b"));
    OverloadEngine engine =
        OverloadEngine.builder(OverloadConfig.of(config))
            .ticker(ticker)
            .scheduler(scheduler)
            .sessionKeys(CookieKeys.random(new SecureRandom()))
            .build();
    List<String> cookies = new CopyOnWriteArrayList<>();
    ConcurrentLinkedQueue<RequestTag> running = new ConcurrentLinkedQueue<>();
    AtomicInteger outcomes = new AtomicInteger();
    AtomicInteger arrivals = new AtomicInteger();
    AtomicInteger overBound = new AtomicInteger();
    Concurrently.run(
        4,
        5_000,
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          String endpoint = random.nextInt(4) == 0 ? "b" : "a";
          RequestTag tag =
              engine.tag(
                  engine.routes().route(endpoint, TestRequest.get("/" + endpoint, "127.0.0.1")),
                  ticker.read());
          arrivals.incrementAndGet();
          String cookie =
              cookies.isEmpty() || random.nextBoolean()
                  ? null
                  : cookies.get(random.nextInt(cookies.size()));
          SessionGate.Answer answer =
              engine.admitSession(tag, new SessionVisit(cookie, null, null, "/" + endpoint, false));
          if (answer.setCookie() != null) {
            cookies.add(answer.setCookie());
          }
          if (engine.sessions().admittedSessions() > 20) {
            overBound.incrementAndGet();
          }
          if (answer.rejected()) {
            settle(engine, tag, Outcome.REJECTED, outcomes);
          } else {
            switch (engine.arrive(tag)) {
              case ADMIT -> running.add(tag);
              case REJECT -> settle(engine, tag, Outcome.REJECTED, outcomes);
              case WAIT -> {
                boolean queued =
                    engine.enqueue(
                        tag,
                        new Waiter.Listener() {
                          @Override
                          public void resumed(Waiter w) {
                            running.add(tag);
                          }

                          @Override
                          public void expired(Waiter w) {
                            settle(engine, tag, Outcome.EXPIRED, outcomes);
                          }
                        });
                if (!queued) {
                  settle(engine, tag, Outcome.REJECTED, outcomes);
                }
              }
            }
          }
          RequestTag done = running.poll();
          if (done != null) {
            settle(engine, done, Outcome.COMPLETED, outcomes);
          }
        });
    for (RequestTag t; (t = running.poll()) != null; ) {
      settle(engine, t, Outcome.COMPLETED, outcomes);
    }
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    for (RequestTag t; (t = running.poll()) != null; ) {
      settle(engine, t, Outcome.COMPLETED, outcomes);
    }
    assertThat(outcomes.get()).isEqualTo(arrivals.get()).isEqualTo(20_000);
    assertThat(overBound.get()).isZero();
    assertThat(engine.sessions().admittedSessions()).isBetween(0, 20);
    assertThat(engine.sessions().tableEntries()).isLessThanOrEqualTo(20);
    assertThat(engine.queues().waitingCount()).isZero();
    assertThat(engine.queues().permitsInUse()).isZero();
    ConcurrencyGroup g = engine.endpoint("a").concurrencyGroup();
    assertThat(g.inFlight()).isZero();
    assertThat(engine.sessions().completedCount()).isPositive();
  }

  private static void settle(
      OverloadEngine engine, RequestTag tag, Outcome outcome, AtomicInteger outcomes) {
    assertThat(engine.settle(tag, outcome, 0)).isTrue();
    outcomes.incrementAndGet();
  }
}
