package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;
import org.overloadcontrol.testing.Concurrently;

/**
 * Requests of two classes on two endpoints racing for a small concurrency limit: every request
 * gets exactly one outcome, the limit is never exceeded, and at rest nothing waits and no
 * permit is held.
 */
class ConcurrencyLimitThreadsTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  @Test
  void everyRequestHasOneOutcomeAndNoPermitLeaks() throws Exception {
    FakeTicker ticker = new FakeTicker();
    FakeScheduler scheduler = new FakeScheduler(ticker);
    OverloadConfig config =
        OverloadConfig.of(
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
    OverloadEngine engine =
        OverloadEngine.builder(config).ticker(ticker).scheduler(scheduler).build();
    ConcurrentLinkedQueue<RequestTag> running = new ConcurrentLinkedQueue<>();
    AtomicInteger outcomes = new AtomicInteger();
    AtomicInteger arrivals = new AtomicInteger();
    AtomicInteger overLimit = new AtomicInteger();
    int threads = 4;
    int perThread = 5_000;
    Concurrently.run(
        threads,
        perThread,
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          EndpointClass route = engine.routes().route(random.nextBoolean() ? "a" : "b", NONE);
          RequestTag tag = engine.tag(route, ticker.read());
          arrivals.incrementAndGet();
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
          ConcurrencyGroup g = engine.endpoint("a").concurrencyGroup();
          if (g.inFlight() > g.limit()) {
            overLimit.incrementAndGet();
          }
          // Finish about one running request per arrival, so that the queues fill and drain.
          RequestTag done = running.poll();
          if (done != null) {
            settle(
                engine,
                done,
                random.nextInt(10) == 0 ? Outcome.FAILED : Outcome.COMPLETED,
                outcomes);
          }
        });
    // Whatever still runs finishes; whatever still waits is resumed by those completions.
    for (RequestTag t; (t = running.poll()) != null; ) {
      settle(engine, t, Outcome.COMPLETED, outcomes);
    }
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    for (RequestTag t; (t = running.poll()) != null; ) {
      settle(engine, t, Outcome.COMPLETED, outcomes);
    }
    assertThat(outcomes.get()).isEqualTo(arrivals.get()).isEqualTo(threads * perThread);
    assertThat(overLimit.get()).isZero();
    assertThat(engine.queues().waitingCount()).isZero();
    assertThat(engine.queues().permitsInUse()).isZero();
    ConcurrencyGroup g = engine.endpoint("a").concurrencyGroup();
    assertThat(g).isSameAs(engine.endpoint("b").concurrencyGroup());
    assertThat(g.inFlight()).isZero();
    assertThat(engine.endpoint("a").permits().inUse()).isZero();
    long counted = 0;
    for (String e : new String[] {"a", "b"}) {
      for (EndpointClass c : engine.endpoint(e).classes()) {
        for (Outcome o : Outcome.values()) {
          counted += c.outcomeCount(o);
        }
      }
    }
    assertThat(counted).isEqualTo(arrivals.get());
  }

  private static void settle(
      OverloadEngine engine, RequestTag tag, Outcome outcome, AtomicInteger outcomes) {
    assertThat(engine.settle(tag, outcome, 0)).isTrue();
    outcomes.incrementAndGet();
  }
}
