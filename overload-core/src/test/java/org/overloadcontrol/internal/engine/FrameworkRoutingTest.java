package org.overloadcontrol.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.classify.TestRequest;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.internal.config.OverloadConfig;

/** The engine routes by a framework's routes between the configured path rules and the default. */
class FrameworkRoutingTest {

  private static final FrameworkRoutes ROUTES =
      FrameworkRoutes.builder("test")
          .route("GET", "/api/search", "Shop#search")
          .route("POST", "/api/orders", "Shop#order")
          .build();

  private static OverloadEngine engine(Map<String, String> keys) {
    return OverloadEngine.builder(OverloadConfig.of(keys))
        .ticker(new FakeTicker())
        .admissionListener(AdmissionListener.NONE)
        .frameworkRoutes(ROUTES)
        .build();
  }

  private static TestRequest request(String method, String path) {
    return new TestRequest(method, path, Map.of(), Map.of(), "127.0.0.1");
  }

  @Test
  void eachRouteIsItsOwnEndpointWithItsOwnClass() {
    OverloadEngine engine =
        engine(
            Map.of(
                "classes.buy.rank",
                "5",
                "endpoints.Shop#order.class",
                "buy",
                "endpoints.Shop#order.target",
                "1s"));
    assertThat(engine.routes().routesByEndpointOnly()).isFalse();
    EndpointClass search = engine.routes().route("dispatcher", request("GET", "/api/search"));
    EndpointClass order = engine.routes().route("dispatcher", request("POST", "/api/orders"));
    assertThat(search.endpoint().name()).isEqualTo("Shop#search");
    assertThat(search.requestClass().name()).isEqualTo("default");
    assertThat(order.endpoint().name()).isEqualTo("Shop#order");
    assertThat(order.requestClass().name()).isEqualTo("buy");
  }

  @Test
  void aRequestNoRouteMatchesStaysWithTheAdaptersEndpoint() {
    OverloadEngine engine = engine(Map.of());
    assertThat(engine.routes().route("dispatcher", request("GET", "/api/orders")).endpoint().name())
        .isEqualTo("dispatcher");
  }

  @Test
  void aConfiguredPathsRuleWinsOverTheFrameworksRoute() {
    OverloadEngine engine = engine(Map.of("endpoints.heavy.paths", "/api/search"));
    assertThat(engine.routes().route("dispatcher", request("GET", "/api/search")).endpoint().name())
        .isEqualTo("heavy");
  }

  @Test
  void withoutRulesTheRoutesAloneRouteAsTheFullRoutingDoes() {
    OverloadEngine engine =
        engine(Map.of("classes.buy.rank", "5", "endpoints.Shop#order.class", "buy"));
    assertThat(engine.routes().routesByFrameworkOnly()).isTrue();
    EndpointClass fallback = engine.routes().defaultRoute("dispatcher");
    for (String[] r :
        new String[][] {
          {"GET", "/api/search"}, {"POST", "/api/orders"}, {"GET", "/api/orders"}, {"GET", "/"}
        }) {
      assertThat(engine.routes().routeByFramework(r[0], r[1], fallback))
          .as(r[0] + " " + r[1])
          .isSameAs(engine.routes().route("dispatcher", request(r[0], r[1])));
    }
    assertThat(
            engine.routes().routeByFramework("POST", "/api/orders", fallback).requestClass().name())
        .isEqualTo("buy");
  }

  @Test
  void aPathsRuleOrAClassRuleMeansTheRoutesAreNotAllThatReadsARequest() {
    assertThat(
            engine(Map.of("endpoints.heavy.paths", "/api/search")).routes().routesByFrameworkOnly())
        .isFalse();
    assertThat(
            engine(Map.of("classes.bot.rank", "1", "classes.bot.match.header", "User-Agent=bot"))
                .routes()
                .routesByFrameworkOnly())
        .isFalse();
  }
}
