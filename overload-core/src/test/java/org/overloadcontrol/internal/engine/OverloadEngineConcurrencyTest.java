package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.testing.Concurrently;

/** Every request gets exactly one outcome, whatever the interleaving. */
class OverloadEngineConcurrencyTest {

  private static final RequestAttributes NONE = TestRequest.get("/", "127.0.0.1");

  @Test
  void outcomesAddUpUnderContentionAndNoneIsCountedTwice() throws Exception {
    OverloadConfig config =
        OverloadConfig.of(
            Map.of(
                "endpoints.e.target",
                "1ms",
                "controller.nreq",
                "10",
                "controller.bucketDepth",
                "5",
                "controller.initialRate",
                "5000"));
    OverloadEngine engine = new OverloadEngine(config, Ticker.system(), AdmissionListener.NONE);
    int threads = 4;
    int perThread = 20_000;
    AtomicInteger doubleReports = new AtomicInteger();
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    Concurrently.run(
        threads,
        perThread,
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          EndpointClass route = engine.routes().route("e", NONE);
          RequestTag tag = engine.tag(route, engine.ticker().read());
          Outcome outcome;
          if (engine.arrive(tag) == Decision.ADMIT) {
            admitted.incrementAndGet();
            outcome = random.nextInt(10) == 0 ? Outcome.FAILED : Outcome.COMPLETED;
          } else {
            rejected.incrementAndGet();
            outcome = Outcome.REJECTED;
          }
          assertThat(engine.settle(tag, outcome, 0)).isTrue();
          if (engine.settle(tag, Outcome.COMPLETED, 0)) {
            doubleReports.incrementAndGet();
          }
        });
    EndpointClass route = engine.endpoint("e").forClass(config.defaultClass());
    long total = (long) threads * perThread;
    assertThat(doubleReports.get()).isZero();
    assertThat(route.arrivalCount()).isEqualTo(total);
    assertThat(route.outcomeCount(Outcome.COMPLETED) + route.outcomeCount(Outcome.FAILED))
        .isEqualTo(admitted.get());
    assertThat(route.outcomeCount(Outcome.REJECTED)).isEqualTo(rejected.get());
    assertThat(admitted.get() + rejected.get()).isEqualTo((int) total);
    // Every refusal counted open was answered: nothing is left in flight for the rate group.
    assertThat(route.inFlight()).isZero();
    // Offered far above 5000/s: the bucket refused some, and controller rounds ran on samples.
    assertThat(route.p90().estimateNanos()).isNotNegative();
    assertThat(rejected.get()).isPositive();
  }
}
