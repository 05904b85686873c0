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
 * A request thread preempted between reading the clock and taking its token must not be
 * refused because other threads moved the bucket on meanwhile: refusals are decided on a fresh
 * reading. (Seen as a few spurious 503s per run in the end-to-end benchmark.)
 */
class StaleClockReadingTest {

  private static final RequestAttributes GET = TestRequest.get("/", "127.0.0.1");

  /** A fake ticker whose next reading can be made stale, as a preempted thread would see. */
  private static final class PreemptableTicker implements Ticker {
    private final FakeTicker clock = new FakeTicker();
    private long staleNext = Long.MIN_VALUE;

    @Override
    public long read() {
      long stale = staleNext;
      staleNext = Long.MIN_VALUE;
      return stale != Long.MIN_VALUE ? stale : clock.read();
    }

    void staleNextBy(Duration behind) {
      staleNext = clock.read() - behind.toNanos();
    }
  }

  private final PreemptableTicker ticker = new PreemptableTicker();
  // 1000 tokens a second, depth 1: a token every millisecond, no tolerance for early arrivals.
  private final OverloadEngine engine =
      new OverloadEngine(
          OverloadConfig.of(
              Map.of(
                  "endpoints.e.target",
                  "1s",
                  "controller.initialRate",
                  "1000",
                  "controller.bucketDepth",
                  "1")),
          ticker,
          AdmissionListener.NONE);

  private Decision arrive(boolean staleFirstReading) {
    RequestTag tag = engine.tag(engine.routes().route("e", GET), ticker.read());
    if (staleFirstReading) {
      ticker.staleNextBy(Duration.ofMillis(1));
    }
    Decision d = engine.arrive(tag);
    engine.settle(tag, d == Decision.ADMIT ? Outcome.COMPLETED : Outcome.REJECTED, 0);
    return d;
  }

  @Test
  void aRequestWhoseFirstClockReadingIsStaleIsJudgedOnAFreshOne() {
    assertThat(arrive(false)).isEqualTo(Decision.ADMIT);
    ticker.clock.advance(Duration.ofMillis(1));
    // The token of this millisecond is there; read a millisecond late, it would not be yet.
    assertThat(arrive(true)).isEqualTo(Decision.ADMIT);
  }

  @Test
  void anEmptyBucketStillRefusesOnTheFreshReading() {
    assertThat(arrive(false)).isEqualTo(Decision.ADMIT);
    ticker.clock.advance(Duration.ofMillis(1));
    assertThat(arrive(false)).isEqualTo(Decision.ADMIT);
    assertThat(arrive(true)).isEqualTo(Decision.REJECT);
    assertThat(arrive(false)).isEqualTo(Decision.REJECT);
  }
}
