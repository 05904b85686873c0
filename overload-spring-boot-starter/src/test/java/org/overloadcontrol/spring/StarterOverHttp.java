package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.overloadcontrol.spring.shop.ShopApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the starter must do on every embedded server, over HTTP on 127.0.0.1: the handler
 * methods of one controller are separate endpoints with their own targets and classes, only the
 * overloaded one is shed, the status JSON is an actuator endpoint, and actuator health is never
 * shed. A subclass names the server ({@link #server()}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StarterOverHttp {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private ConfigurableApplicationContext app;
  private URI base;

  /** Configuration classes that choose the embedded server; none for Spring Boot's default. */
  abstract Class<?>[] server();

  /**
   * The status of the filter's refusals on this server ({@code rejectionStatus: auto}): 429 on
   * Tomcat, Spring Boot's default, which closes the connection after every 503.
   */
  int refusalStatus() {
    return 429;
  }

  /** The shop under the starter on {@link #server()}, with {@code properties} added. */
  ConfigurableApplicationContext run(String... properties) {
    return new SpringApplicationBuilder(ShopApplication.class)
        .sources(server())
        .properties(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.main.banner-mode=off",
            "management.endpoints.web.exposure.include=health,overload")
        .properties(properties)
        .run();
  }

  @BeforeAll
  void start() {
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
    int port = webServer().getPort();
    base = URI.create("http://127.0.0.1:" + port + "/");
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** The running application's embedded server. */
  WebServer webServer() {
    return ((ServletWebServerApplicationContext) app).getWebServer();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
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
      if (send("POST", "shop/orders").statusCode() == refusalStatus()) {
        ordersRefused++;
      }
      if (send("GET", "shop/catalogue").statusCode() == refusalStatus()) {
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

  /** The configuration version the status JSON shows. */
  private long configVersion() throws Exception {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"configVersion\":(\\d+)")
            .matcher(send("GET", "actuator/overload").body());
    assertThat(m.find()).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void theActuatorWriteOperationAndARefreshReloadTheProperties() throws Exception {
    java.util.Map<String, Object> changed = new java.util.HashMap<>();
    org.springframework.core.env.MutablePropertySources sources =
        app.getEnvironment().getPropertySources();
    sources.addFirst(new org.springframework.core.env.MapPropertySource("reload-test", changed));
    try {
      long before = configVersion();
      changed.put("overload.classes.gold.rank", "9");
      HttpResponse<String> applied = send("POST", "actuator/overload");
      assertThat(applied.statusCode()).isEqualTo(200);
      assertThat(applied.body())
          .contains("\"result\":\"applied\"")
          .contains("\"configVersion\":" + (before + 1))
          .contains("classes.gold.rank: (unset) → 9");

      // A bad property: refused with its key-naming message; the application keeps running.
      changed.put("overload.queue.permits", "many");
      HttpResponse<String> refused = send("POST", "actuator/overload");
      assertThat(refused.statusCode()).isEqualTo(200);
      assertThat(refused.body())
          .contains("\"result\":\"refused\"")
          .contains("'queue.permits' = 'many'")
          .contains("\"configVersion\":" + (before + 1));
      assertThat(send("GET", "shop/catalogue").statusCode()).isEqualTo(200);
      assertThat(configVersion()).isEqualTo(before + 1);

      // A refresh that changed an overload.* key reloads, as Spring Cloud announces it.
      changed.remove("overload.queue.permits");
      changed.put("overload.classes.gold.rank", "8");
      app.publishEvent(
          new org.springframework.cloud.context.environment.EnvironmentChangeEvent(
              app, java.util.Set.of("overload.classes.gold.rank")));
      assertThat(configVersion()).isEqualTo(before + 2);
    } finally {
      sources.remove("reload-test");
      send("POST", "actuator/overload");
    }
  }
}
