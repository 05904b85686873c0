package org.overloadcontrol.sample.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot form of the shop on embedded Tomcat, over HTTP on 127.0.0.1: a whole
 * purchase walks through its pages, each page is its own endpoint with the WAR's request class
 * and target (read from the handler methods' annotations: without them every page would be the
 * one {@code dispatcherServlet} endpoint of the default class), and the status JSON and the
 * dashboard answer under {@code /overload/} as in the WAR.
 */
class SpringShopIT {

  private static final Pattern SHOP_PAGE =
      Pattern.compile("<meta name=\"shop-page\" content=\"([a-z]+)\">");
  private static final Pattern ORDER_ID = Pattern.compile("<span id=\"order-id\">([^<]+)<");

  private static ConfigurableApplicationContext app;
  private static URI base;
  private final HttpClient client =
      HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

  @BeforeAll
  static void start() {
    app =
        new SpringApplicationBuilder(SpringShop.class)
            .properties(
                "server.port=0",
                "server.address=127.0.0.1",
                "shop.timeScale=0.02",
                "server.servlet.context-path=/shop")
            .run();
    String port = app.getEnvironment().getProperty("local.server.port");
    base = URI.create("http://127.0.0.1:" + port + "/shop/");
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String shopPage(HttpResponse<String> page) {
    assertThat(page.statusCode()).as("status of %s", page.uri()).isEqualTo(200);
    Matcher m = SHOP_PAGE.matcher(page.body());
    return m.find() ? m.group(1) : "(no shop-page marker)";
  }

  @Test
  void aPurchaseWalksThroughThePagesAndEachPageHasTheWarsEndpointClassAndTarget() throws Exception {
    assertThat(shopPage(get(""))).isEqualTo("home");
    assertThat(shopPage(get("browse"))).isEqualTo("browse");
    assertThat(shopPage(get("search?q=tent"))).isEqualTo("search");
    assertThat(shopPage(get("product?id=1"))).isEqualTo("details");
    assertThat(shopPage(post("cart", "id=1"))).isEqualTo("cart");
    assertThat(shopPage(post("login", "user=ada"))).isEqualTo("login");
    assertThat(shopPage(post("shipping", "address=1+Trail+Road"))).isEqualTo("shipping");
    assertThat(shopPage(post("payment", "card=4111111111111111"))).isEqualTo("payment");
    HttpResponse<String> confirmed = post("confirm", "");
    assertThat(confirmed.statusCode()).isEqualTo(200);
    assertThat(ORDER_ID.matcher(confirmed.body()).find()).as(confirmed.body()).isTrue();
    HttpResponse<byte[]> image =
        client.send(
            HttpRequest.newBuilder(base.resolve("images/1.jpg")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.headers().firstValue("Content-Type")).hasValue("image/jpeg");
    assertThat(image.body()).startsWith((byte) 0xFF, (byte) 0xD8);

    HttpResponse<String> status = get("overload/status");
    assertThat(status.statusCode()).isEqualTo(200);
    Map<String, String> seen = new LinkedHashMap<>();
    for (JsonNode e : new ObjectMapper().readTree(status.body()).get("endpoints")) {
      for (JsonNode c : e.get("classes")) {
        if (c.get("arrivals").asLong() > 0) {
          seen.put(
              e.get("name").asText(),
              c.get("name").asText()
                  + " "
                  + c.get("rank").asInt()
                  + " "
                  + c.get("kind").asText()
                  + " "
                  + c.get("targetSeconds").asText());
        }
      }
    }
    assertThat(seen)
        .containsEntry("home", "home 1 BROWSING 2")
        .containsEntry("browse", "browse 2 BROWSING 2")
        .containsEntry("search", "search 3 BROWSING 2")
        .containsEntry("details", "details 4 BROWSING 2")
        .containsEntry("cart", "cart 4 TRANSACTION null")
        .containsEntry("login", "login 5 TRANSACTION 1.5")
        .containsEntry("shipping", "shipping 6 TRANSACTION 1.5")
        .containsEntry("payment", "payment 7 TRANSACTION 1.5")
        .containsEntry("confirm", "confirm 8 TRANSACTION 1.5")
        .containsEntry("images", "images 0 BROWSING null");
  }

  @Test
  void theShopRunsOnSpringBoot4() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }

  @Test
  void theDashboardAndTheStyleSheetAreServedAsInTheWar() throws Exception {
    HttpResponse<String> dashboard = get("overload/");
    assertThat(dashboard.statusCode()).isEqualTo(200);
    assertThat(dashboard.body()).contains("dashboard.js");
    HttpResponse<String> css = get("shop.css");
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.headers().firstValue("Content-Type").orElse("")).startsWith("text/css");
  }
}
