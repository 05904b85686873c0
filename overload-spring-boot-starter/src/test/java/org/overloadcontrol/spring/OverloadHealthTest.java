package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletContext;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.metrics.StateChange;
import org.overloadcontrol.metrics.MetricsRecorder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The health contributor reads each endpoint's state, the same word as the log and the metrics,
 * and goes out of service on a shedding endpoint only when asked, under the property's new name
 * or its old one.
 */
class OverloadHealthTest {

  private final FakeTicker ticker = new FakeTicker(0);

  /** "search" behind a token bucket of depth 2 at 2 requests a second, on a hand-moved clock. */
  private final OverloadEngine engine =
      OverloadEngine.builder(
              OverloadConfig.of(
                  Map.of(
                      "classes.search.rank", "1",
                      "classes.search.target", "1s",
                      "controller.initialRate", "2",
                      "controller.bucketDepth", "2",
                      "admission.controller", "rate")))
          .ticker(ticker)
          .build();

  private final Observability observability =
      Observability.builder(engine)
          .recorder(MetricsRecorder.NONE)
          .stateListener(StateChange.Listener.NONE)
          .build();

  @AfterEach
  void close() {
    observability.close();
    engine.shutdown();
  }

  private final ServletContext context =
      (ServletContext)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {ServletContext.class},
              (proxy, method, args) ->
                  method.getName().equals("getAttribute") && Observability.ATTRIBUTE.equals(args[0])
                      ? observability
                      : null);

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return env;
  }

  /** Ten searches at once: the bucket admits two, served at once; eight are refused. */
  private void shed() {
    for (int i = 0; i < 10; i++) {
      RequestTag tag =
          engine.tag(
              engine.endpoint("search").forClass(engine.config().requestClass("search").get()),
              ticker.read());
      Decision d = engine.arrive(tag);
      engine.settle(tag, d == Decision.REJECT ? Outcome.REJECTED : Outcome.COMPLETED, 0);
    }
    ticker.advance(Duration.ofSeconds(1));
    observability.tick();
  }

  @Test
  void unknownBeforeTheFilterStarts() {
    ServletContext empty =
        (ServletContext)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {ServletContext.class},
                (proxy, method, args) -> null);
    assertThat(new OverloadHealth(empty, environment(Map.of())).read().known()).isFalse();
  }

  @Test
  void aSheddingEndpointIsReportedWithItsShareAndLeavesTheApplicationUp() {
    shed();
    OverloadHealth.Reading r = new OverloadHealth(context, environment(Map.of())).read();
    assertThat(r.known()).isTrue();
    assertThat(r.outOfService()).isFalse();
    assertThat(r.states())
        .containsExactly(
            Map.entry("healthy", 0),
            Map.entry("limiting", 0),
            Map.entry("degraded", 0),
            Map.entry("shedding", 1));
    assertThat(r.endpoints().get("search"))
        .containsExactly(Map.entry("state", "shedding"), Map.entry("refusedShare", 0.8));
  }

  @Test
  void failWhenSheddingTakesItOutOfServiceWhileAnEndpointSheds() {
    OverloadHealth health =
        new OverloadHealth(context, environment(Map.of(OverloadHealth.FAIL_WHEN_SHEDDING, "true")));
    engine.endpoint("search");
    observability.tick();
    assertThat(health.read().outOfService()).as("nothing shed yet").isFalse();
    shed();
    assertThat(health.read().outOfService()).isTrue();
  }

  @Test
  void theOldPropertyNameStillWorks() {
    shed();
    OverloadHealth health =
        new OverloadHealth(
            context, environment(Map.of(OverloadHealth.FAIL_WHEN_OVERLOADED, "true")));
    assertThat(health.read().outOfService()).isTrue();
  }
}
