package org.overloadcontrol.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;

/**
 * The Dropwizard binding, found on the class path: counts as counters and other values as gauges,
 * in the application's registry or in one of its own exposed over JMX, removed on close.
 */
class DropwizardBindingTest {

  private final EngineDriver driver = new EngineDriver();

  private void traffic(Observability o) {
    driver.traffic();
    o.tick();
  }

  @Test
  void jmxExposesTheOwnRegistryWhileRunningCountsAsCounters() throws Exception {
    Observability o =
        Observability.builder(driver.engine).stateListener(StateChange.Listener.NONE).build();
    traffic(o);
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName arrivals =
        new ObjectName(
            "org.overloadcontrol:name=overload.endpoint.search.class.search.arrivals,type=counters");
    ObjectName lifo = new ObjectName("org.overloadcontrol:name=overload.queue.lifo,type=gauges");
    assertThat(server.getAttribute(arrivals, "Count")).isEqualTo(3L);
    assertThat(server.getAttribute(lifo, "Value")).isEqualTo(1.0);
    assertThat(o.scrape()).as("Dropwizard writes no exposition format").isEmpty();
    o.close();
    assertThat(server.isRegistered(arrivals)).isFalse();
    assertThat(server.isRegistered(lifo)).isFalse();
  }

  @Test
  void theApplicationsRegistryGetsCountersAndGaugesAndIsLeftAsItWas() {
    MetricRegistry app = new MetricRegistry();
    app.counter("application.own");
    Observability o =
        Observability.builder(driver.engine)
            .registry(app)
            .stateListener(StateChange.Listener.NONE)
            .build();
    traffic(o);
    Counter arrivals = app.getCounters().get("overload.endpoint.search.class.search.arrivals");
    assertThat(arrivals.getCount()).isEqualTo(3L);
    assertThat(
            app.getCounters()
                .get("overload.endpoint.search.class.search.outcomes.rejected")
                .getCount())
        .isEqualTo(1L);
    assertThat(app.getGauges()).doesNotContainKey("overload.endpoint.search.class.search.arrivals");
    assertThat(app.getGauges().get("overload.queue.lifo").getValue()).isEqualTo(1.0);
    assertThat(app.getGauges().get("overload.endpoint.search.state.shedding").getValue())
        .isEqualTo(1.0);
    assertThat(app.getGauges().get("overload.endpoint.search.state.healthy").getValue())
        .isEqualTo(0.0);
    assertThatThrownBy(arrivals::inc)
        .as("the engine keeps the count")
        .isInstanceOf(UnsupportedOperationException.class);
    driver.arrive("search");
    assertThat(arrivals.getCount()).as("read from the engine when asked").isEqualTo(4L);
    o.close();
    assertThat(app.getNames()).containsExactly("application.own");
  }

  @Test
  void aNamedBindingThatIsNotOnTheClassPathStopsTheStart() {
    EngineDriver d = new EngineDriver(Map.of("metrics.binding", "dropwizard,micrometer"));
    assertThatThrownBy(() -> Observability.builder(d.engine).build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'micrometer'")
        .hasMessageContaining("overload-metrics-micrometer")
        .hasMessageContaining("found: dropwizard");
  }

  @Test
  void noneRecordsNothing() {
    MetricRegistry app = new MetricRegistry();
    EngineDriver d = new EngineDriver(Map.of("metrics.binding", "none"));
    Observability o = Observability.builder(d.engine).registry(app).build();
    d.arrive("search");
    o.tick();
    assertThat(app.getNames()).isEmpty();
    assertThat(o.statusJson()).contains("\"arrivals\":1");
    o.close();
  }
}
