package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;

class ServletRoutesTest {

  private final OverloadEngine engine =
      new OverloadEngine(
          OverloadConfig.of(Map.of("classes.buyer.rank", "1", "endpoints.checkout.class", "buyer")),
          new FakeTicker(),
          AdmissionListener.NONE);
  private final ServletRoutes routes =
      new ServletRoutes(engine, Map.of("PayServlet", "checkout"), Set.of("overload-status"));

  @Test
  void aServletsRequestsGoToItsEndpointAndThatEndpointsClass() {
    assertThat(engine.routesByEndpointOnly()).isTrue();
    EndpointClass pay = routes.route("PayServlet");
    assertThat(pay.endpoint().name()).isEqualTo("checkout");
    assertThat(pay.requestClass().name()).isEqualTo("buyer");
    // Resolved once: the same route as the engine's own routing, every time.
    assertThat(routes.route("PayServlet")).isSameAs(pay).isSameAs(engine.route("checkout", null));
    EndpointClass browse = routes.route("BrowseServlet");
    assertThat(browse.endpoint().name()).isEqualTo("BrowseServlet");
    assertThat(browse.requestClass().name()).isEqualTo("default");
  }

  @Test
  void requestsNoServletMapsGoToTheUnmappedEndpoint() {
    assertThat(routes.route(null).endpoint().name()).isEqualTo(ServletRoutes.UNMAPPED);
    assertThat(routes.route("").endpoint().name()).isEqualTo(ServletRoutes.UNMAPPED);
    assertThat(routes.endpointOf(null)).isEqualTo(ServletRoutes.UNMAPPED);
  }

  @Test
  void aStatusServletHasNoStage() {
    assertThat(routes.isStatus("overload-status")).isTrue();
    assertThat(routes.route("overload-status")).isNull();
    assertThat(routes.isStatus(null)).isFalse();
  }

  @Test
  void rulesThatReadTheRequestTurnTheShortcutOff() {
    OverloadEngine ruled =
        new OverloadEngine(
            OverloadConfig.of(
                Map.of("classes.gold.rank", "1", "classes.gold.match.header", "X-Tier=gold")),
            new FakeTicker(),
            AdmissionListener.NONE);
    assertThat(ruled.routesByEndpointOnly()).isFalse();
  }
}
