package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

class TargetRoutesTest {

  private final FakeTicker ticker = new FakeTicker();
  private OverloadRuntime runtime;

  private TargetRoutes routes(Map<String, String> keys) {
    runtime =
        OverloadRuntime.builder(OverloadConfig.of(keys))
            .ticker(ticker)
            .scheduler(new FakeScheduler(ticker), "unused")
            .start();
    return new TargetRoutes(
        runtime.pipeline(), Map.of("PayServlet", "checkout"), Set.of("overload-status"));
  }

  private TargetRoutes routes() {
    return routes(Map.of("classes.buyer.rank", "1", "endpoints.checkout.class", "buyer"));
  }

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.shutdown();
      runtime.close();
    }
  }

  @Test
  void aServletsRequestsGoToItsEndpointAndThatEndpointsClass() {
    TargetRoutes routes = routes();
    OverloadEngine engine = runtime.engine();
    assertThat(engine.routes().routesByEndpointOnly()).isTrue();
    EndpointClass pay = routes.route("PayServlet");
    assertThat(pay.endpoint().name()).isEqualTo("checkout");
    assertThat(pay.requestClass().name()).isEqualTo("buyer");
    // Resolved once: the same route as the engine's own routing, every time.
    assertThat(routes.route("PayServlet"))
        .isSameAs(pay)
        .isSameAs(engine.routes().route("checkout", null));
    EndpointClass browse = routes.route("BrowseServlet");
    assertThat(browse.endpoint().name()).isEqualTo("BrowseServlet");
    assertThat(browse.requestClass().name()).isEqualTo("default");
  }

  @Test
  void requestsNoServletMapsGoToTheUnmappedEndpoint() {
    TargetRoutes routes = routes();
    assertThat(routes.route(null).endpoint().name()).isEqualTo(TargetRoutes.UNMAPPED);
    assertThat(routes.route("").endpoint().name()).isEqualTo(TargetRoutes.UNMAPPED);
    assertThat(routes.endpointOf(null)).isEqualTo(TargetRoutes.UNMAPPED);
  }

  @Test
  void aStatusServletHasNoStage() {
    TargetRoutes routes = routes();
    assertThat(routes.isStatus("overload-status")).isTrue();
    assertThat(routes.route("overload-status")).isNull();
    assertThat(routes.isStatus(null)).isFalse();
  }

  @Test
  void rulesThatReadTheRequestTurnTheShortcutOff() {
    routes(Map.of("classes.gold.rank", "1", "classes.gold.match.header", "X-Tier=gold"));
    assertThat(runtime.engine().routes().routesByEndpointOnly()).isFalse();
  }
}
