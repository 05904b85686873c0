package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.OverloadEngine;

/** What the read-only view of an endpoint reads, under each mechanism, on the fake clock. */
class EndpointLoadTest {

  @Test
  void underAConcurrencyLimitItReadsTheGroup() {
    EngineDriver driver =
        new EngineDriver(
            Map.of(
                "admission.controller",
                "concurrency",
                "admission.maxLimit",
                "1",
                "queue.permits",
                "100"));
    assertThat(driver.arrive("search").decision()).isEqualTo(Decision.ADMIT);
    assertThat(driver.arrive("search").decision()).isEqualTo(Decision.WAIT);

    EndpointLoad search = EndpointLoad.of(driver.engine.endpoint("search"));
    assertThat(search.name()).isEqualTo("search");
    assertThat(search.hasGroup()).isTrue();
    assertThat(search.groupName()).isEqualTo("default");
    assertThat(search.groupLimit()).isEqualTo(1);
    assertThat(search.limit()).isEqualTo(1);
    assertThat(search.inFlight()).isEqualTo(1);
    assertThat(search.groupInFlight()).isEqualTo(1);
    assertThat(search.groupFull()).isTrue();
    assertThat(search.arrivals()).isEqualTo(2);

    // The waiter gives up after half its 1 s target.
    driver.advance(Duration.ofMillis(800));
    assertThat(search.outcomes(Outcome.EXPIRED)).isEqualTo(1);
    assertThat(search.outcomes(Outcome.REJECTED)).isZero();
    // One running, nobody waiting, two arrived, one expired.
    assertThat(search.snapshot())
        .isEqualTo(new EndpointSnapshot("search", OptionalInt.of(1), 1, 0, 2, 0, 0, 1));
  }

  @Test
  void underTheWaitQueuesItReadsThePermitsAndTheWaiting() {
    EngineDriver driver = new EngineDriver();
    assertThat(driver.arrive("search").decision()).isEqualTo(Decision.ADMIT);
    assertThat(driver.arrive("search").decision()).isEqualTo(Decision.WAIT);

    EndpointLoad search = EndpointLoad.of(driver.engine.endpoint("search"));
    assertThat(search.hasGroup()).isFalse();
    assertThat(search.groupName()).isNull();
    assertThat(search.groupFull()).isFalse();
    assertThat(search.hasPermits()).isTrue();
    assertThat(search.permitsInUse()).isEqualTo(1);
    assertThat(search.inFlight()).isEqualTo(1);
    assertThat(search.waiting()).isEqualTo(1);
    // Only the one shared permit bounds it: no limit of its own.
    assertThat(search.limit()).isEqualTo(EndpointLoad.UNLIMITED);
    assertThat(search.arrivals()).isEqualTo(2);
    assertThat(search.snapshot())
        .isEqualTo(new EndpointSnapshot("search", OptionalInt.empty(), 1, 1, 2, 0, 0, 0));
  }

  @Test
  void aStoppedEngineHasNoEndpoints() {
    assertThat(EndpointLoad.of((OverloadEngine) null)).isEmpty();
  }
}
