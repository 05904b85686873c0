package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.spring.shop.ShopApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot 3 application on embedded Tomcat, over HTTP on 127.0.0.1, with the starter
 * on its class path and nothing else: the handler methods of one controller are separate
 * endpoints with their own targets and classes, and a bad {@code overload.*} property stops the
 * application naming the key.
 */
class SpringBootStarterIT {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static ConfigurableApplicationContext app;
  private static URI base;

  private static ConfigurableApplicationContext run(String... properties) {
    return new SpringApplicationBuilder(ShopApplication.class)
        .properties(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.main.banner-mode=off",
            "management.endpoints.web.exposure.include=health,overload")
        .properties(properties)
        .run();
  }

  @BeforeAll
  static void start() {
    // Every endpoint with a target starts at 5 requests/s, one token deep, under the rate
    // controller: it refuses at once what arrives faster, whatever the response times.
    // The DispatcherServlet's own endpoint (requests no handler method claims, the actuator's
    // among them) has a target too, so a probe that were not bypassed would be refused.
    app =
        run(
            "overload.admission.controller=rate",
            "overload.controller.initialRate=5",
            "overload.controller.bucketDepth=1",
            "overload.endpoints.dispatcherServlet.target=1ms");
    int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
    base = URI.create("http://127.0.0.1:" + port + "/");
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  private static HttpResponse<String> send(String method, String path) throws Exception {
    return CLIENT.send(
        HttpRequest.newBuilder(base.resolve(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void eachHandlerMethodHasItsOwnEndpointTargetAndClassAndOnlyTheOverloadedOneIsShed()
      throws Exception {
    // The class's @RequestClass applies where a method sets none; a method's own wins.
    assertThat(send("GET", "shop/catalogue").body())
        .isEqualTo("ShopController#catalogue browse null");
    assertThat(send("GET", "shop/search").body()).isEqualTo("ShopController#search browse PT2S");
    assertThat(send("POST", "shop/orders").body()).isEqualTo("ShopController#order order PT0.001S");

    // Orders (a target: admitted at 5/s) arrive faster than that; the catalogue (no target)
    // is never throttled, though both are served by the one DispatcherServlet.
    int ordersRefused = 0;
    int catalogueRefused = 0;
    for (int i = 0; i < 30; i++) {
      if (send("POST", "shop/orders").statusCode() == 503) {
        ordersRefused++;
      }
      if (send("GET", "shop/catalogue").statusCode() == 503) {
        catalogueRefused++;
      }
    }
    assertThat(catalogueRefused).isZero();
    assertThat(ordersRefused).isPositive();
  }

  @Test
  void theStatusJsonIsAnActuatorEndpoint() throws Exception {
    HttpResponse<String> status = send("GET", "actuator/overload");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.headers().firstValue("Content-Type").orElse("")).contains("json");
    assertThat(status.body()).startsWith("{").contains("ShopController#");
  }

  @Test
  void actuatorHealthIsNeverShed() throws Exception {
    int refused = 0;
    for (int i = 0; i < 20; i++) {
      if (send("GET", "actuator/health").statusCode() != 200) {
        refused++;
      }
    }
    assertThat(refused).isZero();
  }

  @Test
  void aMisspelledEndpointInAPropertyStopsTheApplicationNamingTheKey() {
    assertThatThrownBy(() -> run("overload.endpoints.ShopController#ordr.target=1s").close())
        .satisfies(
            e ->
                assertThat(rootConfigError(e))
                    .isNotNull()
                    .satisfies(
                        c ->
                            assertThat(c.getMessage())
                                .contains("'endpoints.ShopController#ordr.target'")
                                .contains("overload.endpoints.ShopController#ordr.target")
                                .contains("did you mean 'ShopController#order'")));
  }

  @Test
  void anUnknownKeyOrABadValueStopsTheApplicationNamingTheKey() {
    assertThatThrownBy(() -> run("overload.controler.alpha=0.5").close())
        .satisfies(
            e ->
                assertThat(rootConfigError(e).getMessage())
                    .contains("'controler.alpha'")
                    .contains("unknown key"));
    assertThatThrownBy(() -> run("overload.queue.permits=many").close())
        .satisfies(
            e -> assertThat(rootConfigError(e).getMessage()).contains("'queue.permits' = 'many'"));
  }

  private static Throwable rootConfigError(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OverloadConfigException) {
        return t;
      }
    }
    throw new AssertionError("no OverloadConfigException in the causes of " + e, e);
  }
}
