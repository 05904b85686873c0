package org.overloadcontrol.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.metrics.MetricId;

/** The recorder's counters keep reading the engine after a garbage collection. */
class MicrometerRecorderTest {

  @Test
  void aCounterStillReadsItsCountAfterACollection() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MicrometerRecorder recorder = new MicrometerRecorder(registry);
    AtomicLong arrivals = new AtomicLong(3);
    // A reading nobody else holds, as the engine's metrics pass them: a fresh lambda.
    recorder.count(
        new MetricId("arrivals", "overload_arrivals", List.of("endpoint"), List.of("search")),
        () -> arrivals.get());
    FunctionCounter counter = registry.find("overload.arrivals").functionCounter();
    assertThat(counter.count()).isEqualTo(3.0);

    for (int i = 0; i < 5; i++) {
      System.gc();
    }
    arrivals.set(4);

    assertThat(counter.count()).isEqualTo(4.0);
  }
}
