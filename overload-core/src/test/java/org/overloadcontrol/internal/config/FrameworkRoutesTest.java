package org.overloadcontrol.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.classify.BypassPaths;

class FrameworkRoutesTest {

  @Test
  void jakartaRestTemplatesMatchOneSegmentPerVariableOrTheirExpression() {
    FrameworkRoutes routes =
        FrameworkRoutes.builder("test")
            .route("GET", "/orders/{id}", "order")
            .route("GET", "/files/{name: .+}", "file")
            .route("GET", "/items/{n: [0-9]+}", "item")
            .build();
    assertThat(routes.endpointOf("GET", "/orders/42")).isEqualTo("order");
    assertThat(routes.endpointOf("GET", "/orders/42/")).isEqualTo("order");
    assertThat(routes.endpointOf("GET", "/orders/42/lines")).isNull();
    assertThat(routes.endpointOf("GET", "/orders")).isNull();
    assertThat(routes.endpointOf("GET", "/files/a/b.txt")).isEqualTo("file");
    assertThat(routes.endpointOf("GET", "/items/12")).isEqualTo("item");
    assertThat(routes.endpointOf("GET", "/items/x")).isNull();
  }

  @Test
  void springPatternsMatchOneSegmentForAStarAndTheRestForTwo() {
    FrameworkRoutes routes =
        FrameworkRoutes.builder("test")
            .route("GET", "/static/*", "static")
            .route("GET", "/docs/**", "docs")
            .route("GET", "/raw/{*path}", "raw")
            .build();
    assertThat(routes.endpointOf("GET", "/static/a.css")).isEqualTo("static");
    assertThat(routes.endpointOf("GET", "/static/a/b.css")).isNull();
    assertThat(routes.endpointOf("GET", "/docs")).isEqualTo("docs");
    assertThat(routes.endpointOf("GET", "/docs/a/b")).isEqualTo("docs");
    assertThat(routes.endpointOf("GET", "/docsx")).isNull();
    assertThat(routes.endpointOf("GET", "/raw/a/b")).isEqualTo("raw");
  }

  @Test
  void theMethodSelectsTheRouteAndHeadFollowsGet() {
    FrameworkRoutes routes =
        FrameworkRoutes.builder("test")
            .route("GET", "/cart", "viewCart")
            .route("POST", "/cart", "addToCart")
            .route(null, "/any", "any")
            .build();
    assertThat(routes.endpointOf("GET", "/cart")).isEqualTo("viewCart");
    assertThat(routes.endpointOf("HEAD", "/cart")).isEqualTo("viewCart");
    assertThat(routes.endpointOf("POST", "/cart")).isEqualTo("addToCart");
    assertThat(routes.endpointOf("DELETE", "/cart")).isNull();
    assertThat(routes.endpointOf("PATCH", "/any")).isEqualTo("any");
  }

  @Test
  void theMostLiteralTemplateWinsWhateverTheOrderGiven() {
    FrameworkRoutes routes =
        FrameworkRoutes.builder("test")
            .route("GET", "/orders/{id}", "order")
            .route("GET", "/orders/recent", "recent")
            .build();
    assertThat(routes.endpointOf("GET", "/orders/recent")).isEqualTo("recent");
    assertThat(routes.endpointOf("GET", "/orders/7")).isEqualTo("order");
    assertThat(routes.endpoints()).containsExactlyInAnyOrder("order", "recent");
  }

  @Test
  void segmentsMatchWholeAndTheRootOnlyItself() {
    FrameworkRoutes routes =
        FrameworkRoutes.builder("test")
            .route("GET", "/", "home")
            .route("GET", "/orders", "orders")
            .route("GET", "/a/{x}/b/{y}", "deep")
            .route("GET", "/files/{name}.txt", "text")
            .build();
    assertThat(routes.endpointOf("GET", "/")).isEqualTo("home");
    assertThat(routes.endpointOf("GET", "")).isEqualTo("home");
    assertThat(routes.endpointOf("GET", "/orders")).isEqualTo("orders");
    assertThat(routes.endpointOf("GET", "/orders/")).isEqualTo("orders");
    assertThat(routes.endpointOf("GET", "/ordersx")).isNull();
    assertThat(routes.endpointOf("GET", "/order")).isNull();
    assertThat(routes.endpointOf("GET", "/orders//")).isNull();
    assertThat(routes.endpointOf("GET", "/a/1/b/2")).isEqualTo("deep");
    assertThat(routes.endpointOf("GET", "/a//b/2")).isNull();
    assertThat(routes.endpointOf("GET", "/a/1/c/2")).isNull();
    // A variable inside a segment takes the regular expression.
    assertThat(routes.endpointOf("GET", "/files/readme.txt")).isEqualTo("text");
    assertThat(routes.endpointOf("GET", "/files/readme.md")).isNull();
    assertThat(routes.endpointOf("GET", null)).isNull();
  }

  @Test
  void literalCharactersAreNotRegularExpressions() {
    FrameworkRoutes routes = FrameworkRoutes.builder("test").route("GET", "/a.b", "dot").build();
    assertThat(routes.endpointOf("GET", "/a.b")).isEqualTo("dot");
    assertThat(routes.endpointOf("GET", "/axb")).isNull();
  }

  @Test
  void aBrokenTemplateIsRefusedNamingIt() {
    assertThatThrownBy(() -> FrameworkRoutes.builder("test").route("GET", "/a/{id", "a"))
        .hasMessageContaining("/a/{id");
    assertThatThrownBy(() -> FrameworkRoutes.builder("test").route("GET", "/a/{id: [}", "a"))
        .hasMessageContaining("/a/{id: [}");
  }

  @Test
  void aRequestTriesTheRoutesOfItsFirstSegmentAndThoseOpenToAnyInTheOneOrder() {
    FrameworkRoutes.Builder b =
        FrameworkRoutes.builder("test")
            .route("GET", "/{tenant}/orders", "tenantOrders")
            .route("GET", "/orders/{id}", "order")
            // "Aa" and "BB" have the same String hash: one slot, told apart by the match.
            .route("GET", "/Aa/x", "aa")
            .route("GET", "/BB/x", "bb");
    for (int i = 0; i < 40; i++) {
      b.route("GET", "/section" + i + "/{id}", "section" + i);
    }
    FrameworkRoutes routes = b.build();
    assertThat(routes.endpointOf("GET", "/orders/42")).isEqualTo("order");
    assertThat(routes.endpointOf("GET", "/acme/orders")).isEqualTo("tenantOrders");
    // More literal characters than {tenant}/orders: the most specific wins.
    assertThat(routes.endpointOf("GET", "/section7/orders")).isEqualTo("section7");
    assertThat(routes.endpointOf("GET", "/sectionX/orders")).isEqualTo("tenantOrders");
    assertThat(routes.endpointOf("GET", "/section7/1")).isEqualTo("section7");
    assertThat(routes.endpointOf("GET", "/section39/1")).isEqualTo("section39");
    assertThat(routes.endpointOf("GET", "/Aa/x")).isEqualTo("aa");
    assertThat(routes.endpointOf("GET", "/BB/x")).isEqualTo("bb");
    assertThat(routes.endpointOf("GET", "/CC/x")).isNull();
    assertThat(routes.endpointOf("GET", "/")).isNull();
  }

  @Test
  void aRouteMayBypassOnlyWhenSomeOfItsPathsCouldBeAProbePath() {
    BypassPaths defaults = BypassPaths.defaults();
    for (String template :
        List.of(
            "/healthz",
            "/health",
            "/{page}",
            "/**",
            "/actuator/**",
            "/actuator/{part}/readiness",
            "/actuator/health/{*rest}",
            "/{a}/prometheus",
            "/{a}/{b}/prometheus",
            "/files/{name: .+}")) {
      assertThat(mayBypass(template, defaults)).as(template).isTrue();
    }
    for (String template :
        List.of(
            "/",
            "/product/{id}",
            "/healthcare",
            "/actuator",
            "/actuator/info",
            "/api/metrics",
            "/orders/**",
            "/orders/{id}/prometheus")) {
      assertThat(mayBypass(template, defaults)).as(template).isFalse();
    }
    BypassPaths styles = BypassPaths.parse("*.css, /ping");
    assertThat(mayBypass("/static/app.css", styles)).isTrue();
    assertThat(mayBypass("/static/{file}", styles)).isTrue();
    assertThat(mayBypass("/static/**", styles)).isTrue();
    assertThat(mayBypass("/ping/**", styles)).isTrue();
    assertThat(mayBypass("/static/app.js", styles)).isFalse();
    assertThat(mayBypass("/pings", styles)).isFalse();
    assertThat(mayBypass("/{anything}", BypassPaths.parse("/*"))).isTrue();
    assertThat(mayBypass("/{anything}", BypassPaths.parse("none"))).isFalse();
  }

  private static boolean mayBypass(String template, BypassPaths bypass) {
    return FrameworkRoutes.builder("test").route("GET", template, "e").build().mayBypass(0, bypass);
  }
}
