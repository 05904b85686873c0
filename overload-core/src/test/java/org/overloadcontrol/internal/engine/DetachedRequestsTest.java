package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A running request whose application gave its thread back (it went async) gives its permit
 * back once it has executed two targets, and the limit takes that moment as its sample; one
 * that holds its thread keeps its permit to the end. Either way its outcome is settled once and
 * its permit comes back once.
 */
class DetachedRequestsTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  private final LimitedEngine one = new LimitedEngine("100ms", "1");
  private final FakeTicker ticker = one.ticker;
  private final FakeScheduler scheduler = one.scheduler;
  private final List<LimitRound> rounds = one.rounds;
  private final OverloadEngine engine = one.engine;

  private ConcurrencyGroup group() {
    return one.group();
  }

  private RequestTag admitAndRun() {
    return one.admitAndRun();
  }

  private RequestTag queue(AtomicBoolean resumed) {
    return one.queue(() -> resumed.set(true));
  }

  private void advance(long millis) {
    ticker.advance(Duration.ofMillis(millis));
    scheduler.runDue();
  }

  @Test
  void aDetachedRequestsPermitLapsesAtTwoTargetsAndGoesToAWaiter() {
    RequestTag hung = admitAndRun();
    engine.detached(hung);
    advance(150);
    AtomicBoolean resumed = new AtomicBoolean();
    RequestTag waiter = queue(resumed);
    advance(10);
    assertThat(resumed).isFalse();
    assertThat(group().inFlight()).isEqualTo(1);
    advance(90); // the periodic task at 200 ms: two targets executed
    assertThat(resumed).isTrue();
    assertThat(hung.holdsPermit()).isFalse();
    assertThat(waiter.holdsPermit()).isTrue();
    assertThat(group().inFlight()).isEqualTo(1);

    // Its end releases nothing more: the waiter's permit is still the one in flight.
    ticker.advance(Duration.ofMillis(800));
    assertThat(engine.settle(hung, Outcome.COMPLETED, 0)).isTrue();
    assertThat(group().inFlight()).isEqualTo(1);
    assertThat(engine.settle(waiter, Outcome.COMPLETED, 0)).isTrue();
    assertThat(group().inFlight()).isZero();
    assertThat(engine.detachedCount()).isZero();
  }

  @Test
  void aRequestHoldingItsThreadKeepsItsPermitToTheEnd() {
    RequestTag slow = admitAndRun();
    AtomicBoolean resumed = new AtomicBoolean();
    queue(resumed);

    for (int i = 0; i < 10; i++) {
      advance(100);
    }
    assertThat(resumed).isFalse();
    assertThat(slow.holdsPermit()).isTrue();
    assertThat(group().inFlight()).isEqualTo(1);
    assertThat(engine.detachedCount()).isZero();
    engine.settle(slow, Outcome.COMPLETED, 0);
    assertThat(group().inFlight()).isZero();
  }

  @Test
  void aDetachedRequestSettledInTimeReleasesOnceAndIsForgotten() {
    RequestTag quick = admitAndRun();
    engine.detached(quick);
    assertThat(engine.detachedCount()).isEqualTo(1);
    advance(50);
    engine.settle(quick, Outcome.COMPLETED, 0);
    assertThat(engine.detachedCount()).isZero();
    assertThat(group().inFlight()).isZero();

    RequestTag next = admitAndRun();
    advance(500);
    assertThat(next.holdsPermit()).isTrue();
    assertThat(group().inFlight()).isEqualTo(1);
  }

  @Test
  void detachedAfterItsOutcomeWasSettledKeepsNothing() {
    RequestTag done = admitAndRun();
    engine.settle(done, Outcome.COMPLETED, 0);
    engine.detached(done);
    assertThat(engine.detachedCount()).isZero();
    assertThat(group().inFlight()).isZero();
  }

  @Test
  void theLapseIsTheSampleAndTheLateEndIsNone() {
    RequestTag hung = admitAndRun();
    engine.detached(hung);
    advance(200);
    assertThat(hung.holdsPermit()).isFalse();
    ticker.advance(Duration.ofSeconds(3)); // ended by the container's async timeout
    engine.settle(hung, Outcome.FAILED, 0);

    one.closeWindow();
    assertThat(rounds).hasSize(1);
    assertThat(rounds.get(0).samples()).isEqualTo(1);
    assertThat(rounds.get(0).p90OfTarget()).isBetween(2.0, 2.1);
  }

  /**
   * The chaos mix under the defaults in Tomcat (docs/results.md): 1,250 requests a second of
   * 0–8 ms each on their threads, 3 % of them going async and never completing until the
   * container's async timeout of 1 s, which it runs once a second, so they end in bursts 1–2 s
   * after they began; a ceiling of 46 (48 container threads). Held to their end, the hung
   * requests took the whole limit, and the bursts' windows cut it to 1.
   */
  @Test
  void requestsHungUntilABurstOfTimeoutsDoNotStarveTheRest() {
    Random random = new Random(32);
    OverloadEngine chaos =
        OverloadEngine.builder(
                OverloadConfig.of(
                    Map.of(
                        "endpoints.e.target",
                        "300ms",
                        "admission.controller",
                        "concurrency",
                        "admission.maxLimit",
                        "46")))
            .ticker(ticker)
            .scheduler(scheduler)
            .build();
    record End(long at, RequestTag tag) {}
    PriorityQueue<End> ends = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
    long ms = 1_000_000L;
    long start = ticker.read();
    int[] others = new int[2]; // from 5 s on: arrived, refused or expired
    int lowestLimit = Integer.MAX_VALUE;
    double arrivals = 0;
    for (int t = 1; t <= 20_000; t++) {
      ticker.advance(Duration.ofMillis(1));
      scheduler.runDue();
      long now = ticker.read();
      while (!ends.isEmpty() && ends.peek().at <= now) {
        chaos.settle(ends.poll().tag, Outcome.COMPLETED, 0);
      }
      boolean counted = t > 5_000;
      for (arrivals += 1.25; arrivals >= 1; arrivals--) {
        RequestTag tag = chaos.tag(chaos.routes().route("e", NONE), now);
        boolean hangs = random.nextInt(100) < 3;
        long runs = (1 + random.nextInt(8)) * ms;
        if (counted && !hangs) {
          others[0]++;
        }
        Runnable run =
            () -> {
              chaos.running(tag);
              long began = ticker.read();
              if (hangs) {
                chaos.detached(tag);
                long timedOut = began + 1_000 * ms;
                long sweep = start + ((timedOut - start) / (1_000 * ms) + 1) * 1_000 * ms;
                ends.add(new End(sweep, tag));
              } else {
                ends.add(new End(began + runs, tag));
              }
            };
        Decision d = chaos.arrive(tag);
        if (d == Decision.ADMIT) {
          run.run();
        } else if (d == Decision.WAIT) {
          chaos.enqueue(
              tag,
              new Waiter.Listener() {
                @Override
                public void resumed(Waiter w) {
                  run.run();
                }

                @Override
                public void expired(Waiter w) {
                  chaos.settle(tag, Outcome.EXPIRED, 0);
                  if (counted && !hangs) {
                    others[1]++;
                  }
                }
              });
        } else {
          chaos.settle(tag, Outcome.REJECTED, 0);
          if (counted && !hangs) {
            others[1]++;
          }
        }
      }
      if (counted) {
        lowestLimit = Math.min(lowestLimit, chaos.endpoint("e").concurrencyGroup().limit());
      }
    }
    // The rest need a few permits: 1,250 a second of 4.5 ms, 6 in flight.
    assertThat(lowestLimit).isGreaterThanOrEqualTo(23);
    assertThat(others[1]).isLessThanOrEqualTo(others[0] / 100);
  }
}
