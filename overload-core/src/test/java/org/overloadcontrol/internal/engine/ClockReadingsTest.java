package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * A clock reading costs about 20 ns, a third of the engine's work per request, so the engine
 * reads it as few times as it can: once at arrival (the adapter's reading also serves the
 * admission decision), and at completion only for a completion that is sampled or that
 * another controller needs. A refusal is still decided on a fresh reading.
 */
class ClockReadingsTest {

  private static final RequestAttributes GET = TestRequest.get("/", "127.0.0.1");

  /** Counts the readings. */
  private static final class CountingTicker implements Ticker {
    final FakeTicker clock = new FakeTicker();
    long reads;

    @Override
    public long read() {
      reads++;
      return clock.read();
    }
  }

  private final CountingTicker ticker = new CountingTicker();

  private OverloadEngine engine(Map<String, String> config) {
    OverloadEngine engine =
        new OverloadEngine(OverloadConfig.of(config), ticker, AdmissionListener.NONE);
    engine.routes().route("e", GET); // creating the endpoint reads the clock once, not per request
    return engine;
  }

  /** One request as an adapter drives it; returns the clock readings it took. */
  private long request(OverloadEngine engine, Duration serviceTime) {
    long before = ticker.reads;
    long now = ticker.read();
    RequestTag tag = engine.tag(engine.routes().route("e", GET), now, now);
    Decision d = engine.arrive(tag);
    ticker.clock.advance(serviceTime);
    engine.settle(tag, d == Decision.ADMIT ? Outcome.COMPLETED : Outcome.REJECTED, 0L);
    return ticker.reads - before;
  }

  @Test
  void anAdmittedRequestOfAControlledClassReadsTheClockAtArrivalAndCompletionOnly() {
    OverloadEngine engine =
        engine(
            Map.of(
                "endpoints.e.target",
                "1s",
                "controller.initialRate",
                "1000",
                "controller.bucketDepth",
                "10"));
    assertThat(request(engine, Duration.ofMillis(5))).isEqualTo(2);
  }

  @Test
  void theArrivalReadingDecidesAnAdmissionButARefusalReadsAFreshOne() {
    // 1000 tokens a second, depth 1: a token every millisecond.
    OverloadEngine engine =
        engine(
            Map.of(
                "endpoints.e.target",
                "1s",
                "controller.initialRate",
                "1000",
                "controller.bucketDepth",
                "1"));
    assertThat(request(engine, Duration.ZERO)).isEqualTo(2);
    ticker.clock.advance(Duration.ofMillis(1));
    // Tagged with a reading a millisecond old (a thread preempted after reading the clock):
    // the bucket looks empty at it, the fresh reading finds this millisecond's token.
    long stale = ticker.clock.read() - Duration.ofMillis(1).toNanos();
    RequestTag tag = engine.tag(engine.routes().route("e", GET), stale, stale);
    long before = ticker.reads;
    assertThat(engine.arrive(tag)).isEqualTo(Decision.ADMIT);
    assertThat(ticker.reads - before).isEqualTo(1);
    engine.settle(tag, Outcome.COMPLETED, 0L);
    // And an empty bucket still refuses, after the fresh reading.
    long now = ticker.read();
    RequestTag refused = engine.tag(engine.routes().route("e", GET), now, now);
    assertThat(engine.arrive(refused)).isEqualTo(Decision.REJECT);
    engine.settle(refused, Outcome.REJECTED, 0L);
  }

  @Test
  void aboveTheSamplingRateMostCompletionsReadNoClock() {
    // Measured, not controlled: 100 requests per millisecond of the fake clock (10^5/s).
    OverloadEngine engine = engine(Map.of());
    for (int ms = 0; ms < 2_500; ms++) {
      for (int i = 0; i < 100; i++) {
        request(engine, Duration.ZERO);
      }
      ticker.clock.advance(Duration.ofMillis(1));
    }
    // After a round has measured the rate, about 2,000 completions a second are sampled:
    // 2 % of these.
    long requests = 10_000;
    long reads = 0;
    for (int i = 0; i < requests; i++) {
      reads += request(engine, Duration.ofNanos(10_000));
    }
    long completionReads = reads - requests;
    assertThat(completionReads).isBetween(50L, 1_000L);
  }

  @Test
  void belowTheSamplingRateEveryCompletionReadsTheClock() {
    OverloadEngine engine = engine(Map.of());
    long reads = 0;
    for (int i = 0; i < 3_000; i++) {
      reads += request(engine, Duration.ofMillis(1));
    }
    assertThat(reads).isEqualTo(6_000);
  }
}
