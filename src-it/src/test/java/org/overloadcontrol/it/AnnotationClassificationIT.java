package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.Browser;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.ContextEchoServlet;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.EngineProbe;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The filter reads {@code @RequestClass}, {@code @ResponseTimeTarget} and {@code @Endpoint}
 * from the servlets a real container registered from web.xml, and a servlet sees the result
 * through {@code Overload.context(request)}; a wrong init-param stops the application from
 * starting, in both containers.
 */
class AnnotationClassificationIT {

  @TempDir Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void servletsSeeTheClassEndpointAndTargetOfTheirAnnotations(ContainerKind kind) throws Exception {
    Path dir = app(Map.of()).writeUnder(apps, kind.name());
    try (WebContainer container = kind.start(Deployment.of(dir).withContextPath("/app"))) {
      Browser browser = new Browser(container.baseUri());

      assertThat(echo(browser, "checkout"))
          .containsEntry("endpoint", "checkout")
          .containsEntry("class", "checkout")
          .containsEntry("target", "300");
      assertThat(echo(browser, "browse"))
          .containsEntry("endpoint", "catalogue")
          .containsEntry("class", "browse")
          .containsEntry("target", "1500");
      assertThat(echo(browser, "plain"))
          .containsEntry("endpoint", "plain")
          .containsEntry("class", "default")
          .containsEntry("target", "none");

      assertThat(EngineProbe.route(container.servletContext(), "checkout"))
          .hasValueSatisfying(
              s -> {
                assertThat(s.requestClass()).isEqualTo("checkout");
                assertThat(s.rank()).isEqualTo(7);
                assertThat(s.kind()).isEqualTo("TRANSACTION");
                assertThat(s.utility()).isEqualTo(4500.0);
                assertThat(s.targetNanos()).isEqualTo(Duration.ofMillis(300).toNanos());
                assertThat(s.completedCount()).isEqualTo(1);
              });
      assertThat(EngineProbe.route(container.servletContext(), "catalogue"))
          .hasValueSatisfying(
              s -> {
                assertThat(s.rank()).isEqualTo(2);
                assertThat(s.kind()).isEqualTo("BROWSING");
                assertThat(s.utility()).isEqualTo(22.0);
              });
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void initParamsOverrideAnnotations(ContainerKind kind) throws Exception {
    Path dir = app(Map.of("endpoints.checkout.target", "250ms")).writeUnder(apps, kind.name());
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      assertThat(echo(new Browser(container.baseUri()), "checkout")).containsEntry("target", "250");
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aWrongInitParamStopsTheApplicationFromStarting(ContainerKind kind) throws Exception {
    Path dir = app(Map.of("endpoints.checkout.target", "soon")).writeUnder(apps, kind.name());
    assertThatThrownBy(() -> kind.start(Deployment.of(dir)).close())
        .isInstanceOf(IllegalStateException.class);
  }

  private static ExplodedWebApp app(Map<String, String> filterParams) {
    return new ExplodedWebApp()
        .withOverloadFilter(filterParams)
        .withServlet("checkout", ContextEchoServlet.Checkout.class, Map.of(), "/checkout")
        .withServlet("browse", ContextEchoServlet.Browse.class, Map.of(), "/browse")
        .withServlet("plain", ContextEchoServlet.Plain.class, Map.of(), "/plain");
  }

  private static Map<String, String> echo(Browser browser, String path) throws Exception {
    Browser.Page page = browser.get(path);
    assertThat(page.status()).as("status of " + page.uri()).isEqualTo(200);
    return Arrays.stream(page.body().split("\n"))
        .map(line -> line.split("=", 2))
        .filter(kv -> kv.length == 2)
        .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1].trim()));
  }
}
