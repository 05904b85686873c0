package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.EngineProbe;
import org.overloadcontrol.it.support.WebContainer;

/**
 * README's Jakarta REST quick start as written (module sample-jakarta-rest: README's pom
 * dependencies, the filter's declaration, a Jersey resource with the annotations), deployed as a
 * WAR in Jetty 12 and Tomcat 10.1: its resource methods answer through the filter, each an
 * endpoint of its own with the target of its annotation.
 */
class JakartaRestQuickStartIT {

  private static Path war;

  @BeforeAll
  static void findWar() {
    String path = System.getProperty("sample.rest.war");
    Assumptions.assumeTrue(
        path != null && Files.isRegularFile(Path.of(path)),
        "Jakarta REST sample WAR absent (" + path + "): build it first");
    war = Path.of(path);
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theResourceMethodsAreEndpointsWithTheirTargets(ContainerKind kind) throws Exception {
    try (WebContainer container = kind.start(Deployment.of(war))) {
      HttpClient client = HttpClient.newHttpClient();
      URI orders = container.baseUri().resolve("api/orders");
      HttpResponse<String> order =
          client.send(
              HttpRequest.newBuilder(orders)
                  .timeout(Duration.ofSeconds(30))
                  .POST(HttpRequest.BodyPublishers.ofString("two shoes"))
                  .header("Content-Type", "text/plain")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(order.statusCode()).as("POST %s", orders).isEqualTo(200);
      assertThat(order.body()).isEqualTo("ordered: two shoes");
      HttpResponse<String> status =
          client.send(
              HttpRequest.newBuilder(orders.resolve("orders/7"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(status.statusCode()).isEqualTo(200);
      assertThat(status.body()).isEqualTo("order 7: shipped");
      List<EngineProbe.RouteView> routes = EngineProbe.read(container.servletContext());
      assertThat(routes)
          .as("the endpoints the filter saw requests at")
          .anySatisfy(
              r -> {
                assertThat(r.endpoint()).isEqualTo("OrderResource#order");
                assertThat(r.requestClass()).isEqualTo("payment");
                assertThat(r.targetNanos()).isEqualTo(Duration.ofMillis(1500).toNanos());
              })
          .anySatisfy(
              r -> {
                assertThat(r.endpoint()).isEqualTo("OrderResource#status");
                assertThat(r.targetNanos()).isEqualTo(Duration.ofMillis(300).toNanos());
              });
    }
  }
}
