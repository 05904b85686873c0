package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.metrics.MetricsRecorder;

/**
 * The core alone, as a WAR with only the filter runs it: no binding on the class path, so the
 * metrics go nowhere, and the status (the engine's own snapshot) and the overload watch work.
 */
class NoBindingTest {

  @Test
  void withoutABindingNothingIsRecordedAndTheStatusWorks() {
    EngineDriver driver = new EngineDriver();
    Observability o =
        Observability.builder(driver.engine).stateListener(StateChange.Listener.NONE).build();
    driver.traffic();
    o.tick();
    assertThat(o.metrics().recorder()).isSameAs(MetricsRecorder.NONE);
    assertThat(o.scrape()).isEmpty();
    assertThat(o.statusJson()).contains("\"arrivals\":3");
    assertThat(o.watch().state("search")).isEqualTo(EndpointState.SHEDDING);
    o.close();
  }

  @Test
  void aNamedBindingWithoutItsModuleSaysWhichToAdd() {
    EngineDriver driver = new EngineDriver(Map.of("metrics.binding", "prometheus"));
    assertThatThrownBy(() -> Observability.builder(driver.engine).build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("add the module overload-metrics-prometheus")
        .hasMessageContaining("found: none");
  }

  @Test
  void aBlankBindingNameIsRefused() {
    EngineDriver driver = new EngineDriver(Map.of("metrics.binding", "prometheus,"));
    assertThatThrownBy(() -> Observability.builder(driver.engine).build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("metrics.binding")
        .hasMessageContaining("must be binding names separated by commas");
  }
}
