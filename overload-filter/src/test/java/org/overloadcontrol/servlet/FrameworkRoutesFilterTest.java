package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.FilterChain;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.internal.config.FrameworkRoutes;

/**
 * A framework's routes (Spring Boot, Jakarta REST) decide the endpoint of the requests they
 * match; the others go to their servlet's endpoint, and a status servlet's requests stay
 * uncontrolled even where a route's template would match their path.
 */
class FrameworkRoutesFilterTest {

  private final FilterHarness harness = new FilterHarness();
  private final List<String> endpoints = new ArrayList<>();
  private final FilterChain chain =
      (rq, rs) -> endpoints.add(Overload.context(rq).map(OverloadContext::endpoint).orElse("-"));

  @Test
  void aMatchedRouteNamesTheEndpointElseTheServletAndStatusPagesStayUncontrolled()
      throws Exception {
    harness.servlets.put("dispatcher", jakarta.servlet.http.HttpServlet.class);
    harness.servlets.put("status", OverloadStatusServlet.class);
    harness.contextAttributes.put(
        FrameworkRoutes.ATTRIBUTE,
        FrameworkRoutes.builder("test")
            .route("GET", "/orders/{id}", "order")
            .route("GET", "/status/**", "shadowed")
            .build());
    OverloadFilter filter = harness.start();
    assertThat(filter.runtime().engine().routes().routesByFrameworkOnly()).isTrue();
    for (String[] request :
        List.of(
            new String[] {"dispatcher", "/orders/7"},
            new String[] {"dispatcher", "/cart"},
            new String[] {"status", "/status/json"})) {
      filter.doFilter(
          new FilterHarness.Req().servlet(request[0], request[1]).build(),
          new FilterHarness.Res().mock,
          chain);
    }
    assertThat(endpoints).containsExactly("order", "dispatcher", "-");
  }

  @Test
  void aProbePathStaysUncontrolledWhereARouteTakesItAndOtherRoutesSkipTheCheck() throws Exception {
    harness.servlets.put("dispatcher", jakarta.servlet.http.HttpServlet.class);
    harness.contextAttributes.put(
        FrameworkRoutes.ATTRIBUTE,
        FrameworkRoutes.builder("test")
            .route("GET", "/orders/{id}", "order")
            .route("GET", "/actuator/**", "actuator")
            .route("GET", "/{page}", "page")
            .build());
    OverloadFilter filter = harness.start();
    for (String path : List.of("/orders/7", "/actuator/health", "/healthz", "/cart")) {
      filter.doFilter(
          new FilterHarness.Req().servlet("dispatcher", path).build(),
          new FilterHarness.Res().mock,
          chain);
    }
    assertThat(endpoints).containsExactly("order", "-", "-", "page");
  }
}
