package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;

/** The handler on a real Jetty over HTTP: routing, classification, context, refusals, config. */
class OverloadHandlerTest {

  /** Answers with the endpoint and class the handler gave the request; throws for /boom. */
  static final class EchoContext extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if (Request.getPathInContext(request).equals("/boom")) {
        throw new IllegalStateException("boom");
      }
      if (Request.getPathInContext(request).equals("/nobody")) {
        return false;
      }
      OverloadContext ctx = (OverloadContext) request.getAttribute(OverloadContext.ATTRIBUTE);
      JettyHarness.answer(response, callback, ctx.endpoint() + "/" + ctx.requestClass());
      return true;
    }
  }

  private static long count(OverloadEngine engine, Outcome outcome) {
    return engine.endpoints().stream()
        .flatMap(e -> e.classes().stream())
        .mapToLong(c -> c.outcomeCount(outcome))
        .sum();
  }

  @Test
  void routesByPathAndClassifiesByHeaderCookieMethodAndClient() throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder()
            .paths("search", "/search/*")
            .defaultEndpoint("api")
            .put("classes.gold.rank", "5")
            .match("gold", "header", "X-Tier=gold")
            .put("classes.member.rank", "4")
            .match("member", "cookie", "member=yes")
            .put("classes.writer.rank", "3")
            .match("writer", "method", "POST")
            .put("classes.local.rank", "1")
            .match("local", "client", "127.0.0.0/8")
            .handler(new EchoContext())
            .build();
    try (JettyHarness jetty = new JettyHarness(handler)) {
      assertThat(
              jetty
                  .request("/search/books")
                  .headers(h -> h.put("X-Tier", "gold"))
                  .send()
                  .getContentAsString())
          .isEqualTo("search/gold");
      assertThat(
              jetty
                  .request("/cart")
                  .headers(h -> h.put("Cookie", "member=yes"))
                  .send()
                  .getContentAsString())
          .isEqualTo("api/member");
      assertThat(jetty.request("/cart").method(HttpMethod.POST).send().getContentAsString())
          .isEqualTo("api/writer");
      assertThat(jetty.get("/cart").getContentAsString()).isEqualTo("api/local");
      // The path is decoded and normalised before the rules see it.
      assertThat(jetty.get("/x/../search/a").getContentAsString()).isEqualTo("search/local");
      // The client may read the last bytes before the write's callback has run on the server.
      await("five completions")
          .until(() -> count(handler.runtime().engine(), Outcome.COMPLETED) == 5);
    }
  }

  @Test
  void refusesWith503RetryAfterAndProblemJsonOrHtml() throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder()
            .put("endpoints.default.target", "100ms")
            .put("admission.controller", "rate")
            .put("controller.initialRate", "0.1")
            .handler(new EchoContext())
            .build();
    try (JettyHarness jetty = new JettyHarness(handler)) {
      assertThat(jetty.get("/a").getStatus()).isEqualTo(200); // the bucket's one token
      ContentResponse api = jetty.get("/a?q=1");
      assertThat(api.getStatus()).isEqualTo(503);
      assertThat(api.getHeaders().get("Retry-After")).isEqualTo("10"); // 1 / 0.1 per second
      assertThat(api.getHeaders().get("Cache-Control")).isEqualTo("no-store");
      assertThat(api.getMediaType()).isEqualTo("application/problem+json");
      assertThat(api.getContentAsString())
          .contains(
              "\"status\":503",
              "\"instance\":\"/a\"",
              "\"endpoint\":\"default\"",
              "\"requestClass\":\"default\"",
              "\"reason\":\"admission-rate\"",
              "\"retryAfterSeconds\":10");
      ContentResponse browser =
          jetty
              .request("/a")
              .headers(h -> h.put("Accept", "text/html,application/xhtml+xml"))
              .send();
      assertThat(browser.getStatus()).isEqualTo(503);
      assertThat(browser.getMediaType()).isEqualTo("text/html");
      assertThat(browser.getContentAsString())
          .contains("We are very busy right now", "try again in 10 seconds");
      OverloadEngine engine = handler.runtime().engine();
      assertThat(count(engine, Outcome.REJECTED)).isEqualTo(2); // settled before the answer
      await("one completion").until(() -> count(engine, Outcome.COMPLETED) == 1);
    }
  }

  /** Issue 35: an override receives the value the filter's handler does, not the engine's tag. */
  @Test
  void anOverrideAnswersARefusalFromTheRejection() throws Exception {
    List<Rejection> seen = new CopyOnWriteArrayList<>();
    OverloadHandler handler =
        new OverloadHandler(new EchoContext()) {
          @Override
          protected void reject(
              Request request, Response response, Callback callback, Rejection rejection) {
            seen.add(rejection);
            response.setStatus(429);
            response.getHeaders().put("X-Reason", rejection.reason().code());
            JettyHarness.answer(
                response,
                callback,
                rejection.endpoint()
                    + "/"
                    + rejection.requestClass()
                    + " in "
                    + rejection.retryAfterSeconds()
                    + " s");
          }
        };
    handler.put("endpoints.default.target", "100ms");
    handler.put("admission.controller", "rate");
    handler.put("controller.initialRate", "0.1");
    try (JettyHarness jetty = new JettyHarness(handler)) {
      assertThat(jetty.get("/a").getStatus()).isEqualTo(200); // the bucket's one token
      ContentResponse refused = jetty.get("/a");
      assertThat(refused.getStatus()).isEqualTo(429);
      assertThat(refused.getHeaders().get("X-Reason")).isEqualTo("admission-rate");
      assertThat(refused.getContentAsString()).isEqualTo("default/default in 10 s");
      assertThat(seen)
          .singleElement()
          .extracting(Rejection::reason)
          .isEqualTo(RejectionReason.ADMISSION_RATE);
      assertThat(count(handler.runtime().engine(), Outcome.REJECTED)).isEqualTo(1);
    }
  }

  @Test
  void anExceptionIsAFailedOutcomeAndAnUnhandledRequestCompletes() throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder().permits(2).handler(new EchoContext()).build();
    try (JettyHarness jetty = new JettyHarness(handler)) {
      assertThat(jetty.get("/nobody").getStatus()).isEqualTo(404);
      // Last: Jetty closes the connection after a handler threw.
      assertThat(jetty.get("/boom").getStatus()).isEqualTo(500);
      OverloadEngine engine = handler.runtime().engine();
      assertThat(count(engine, Outcome.FAILED)).isEqualTo(1);
      assertThat(count(engine, Outcome.COMPLETED)).isEqualTo(1);
      assertThat(engine.queues().permitsInUse()).isZero();
    }
  }

  @Test
  void qualityChangesAreLoggedByDefaultAsTheFilterDoes() {
    assertThat(new OverloadHandler().getQualityListener())
        .isInstanceOf(org.overloadcontrol.degrade.LoggingQualityListener.class);
  }

  @Test
  void badConfigurationFailsAtOnceNamingTheKeyValueAndOrigin() {
    assertThatThrownBy(() -> OverloadHandler.builder().put("endpoints.x.target", "-5ms").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'endpoints.x.target' = '-5ms'")
        .hasMessageContaining(OverloadHandler.SETTINGS_ORIGIN);
    assertThatThrownBy(() -> OverloadHandler.builder().put("maxThreads", "5").build())
        .hasMessageContaining("unknown key");
    assertThatThrownBy(
            () -> OverloadHandler.builder().put("rejectionHandler", "com.example.Page").build())
        .hasMessageContaining("override reject");
    // The features' sections are validated by build() as well.
    assertThatThrownBy(() -> OverloadHandler.builder().put("bandwidth.total", "100KB").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("bandwidth.total")
        .hasMessageContaining("/s");
    assertThatThrownBy(() -> OverloadHandler.builder().put("virtualQueue.enabled", "true").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("virtualQueue.paths");
    assertThatThrownBy(
            () -> OverloadHandler.builder().put("endpoints.defualt.target", "1s").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("'endpoints.defualt.target'")
        .hasMessageContaining("did you mean 'default'?");
    // As strict as the filter: misspelled metrics and status keys were accepted here.
    assertThatThrownBy(() -> OverloadHandler.builder().put("metrics.perod", "1s").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("metrics.perod");
    assertThatThrownBy(() -> OverloadHandler.builder().put("status.alow", "10.0.0.1").build())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("status.alow");
    assertThatThrownBy(() -> OverloadHandler.builder().configFile(Path.of("/nowhere.yaml")).build())
        .hasMessageContaining("'configFile'")
        .hasMessageContaining("no such file");
  }

  @Test
  void aBadValueThroughATypedMethodIsRefusedAsTheSameKeyWrittenByHand() {
    assertThat(
            messageOf(OverloadHandler.builder().requestClass("buyer", 1, RequestKind.BROWSING, -1)))
        .isEqualTo(
            messageOf(
                OverloadHandler.builder()
                    .put("classes.buyer.rank", "1")
                    .put("classes.buyer.kind", "browsing")
                    .put("classes.buyer.utility", "-1.0")))
        .contains("'classes.buyer.utility' = '-1.0'");
    assertThat(messageOf(OverloadHandler.builder().trustedProxies("10.0.0.1", "no-address")))
        .isEqualTo(
            messageOf(OverloadHandler.builder().put("trustedProxies", "10.0.0.1,no-address")))
        .contains("'trustedProxies'");
    assertThat(messageOf(OverloadHandler.builder().match("default", "host", "a.example")))
        .isEqualTo(
            messageOf(OverloadHandler.builder().put("classes.default.match.host", "a.example")))
        .contains("classes.default.match.host");
  }

  private static String messageOf(OverloadHandlerBuilder builder) {
    try {
      builder.build();
    } catch (OverloadConfigException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted");
  }

  @Test
  void theYamlFileOverridesKeysGivenInJava(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("overload.yaml"),
        "endpoints:\n  search:\n    target: 800ms\n" + "    paths: [/search/*]\n");
    OverloadHandler handler =
        OverloadHandler.builder()
            .target("search", java.time.Duration.ofMillis(300))
            .put("endpoints.search.class", "default")
            .baseDirectory(dir)
            .configFile(Path.of("overload.yaml"))
            .handler(new EchoContext())
            .build();
    handler.start();
    try {
      EndpointClass route =
          handler
              .runtime()
              .engine()
              .routes()
              .route(
                  "default",
                  new org.overloadcontrol.internal.classify.RequestAttributes() {
                    @Override
                    public String method() {
                      return "GET";
                    }

                    @Override
                    public String path() {
                      return "/search/x";
                    }

                    @Override
                    public String header(String name) {
                      return null;
                    }

                    @Override
                    public String cookie(String name) {
                      return null;
                    }

                    @Override
                    public String clientAddress() {
                      return null;
                    }
                  });
      assertThat(route.endpoint().name()).isEqualTo("search");
      assertThat(route.controller().targetNanos()).isEqualTo(800_000_000L);
      assertThatThrownBy(() -> handler.put("enabled", "false"))
          .isInstanceOf(IllegalStateException.class);
    } finally {
      handler.stop();
    }
  }

  @Test
  void theOperatorFileNamedBySystemPropertyIsLayeredLast(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("overload.yaml"),
        "endpoints:\n  search:\n    target: 800ms\n" + "    paths: [/search/*]\n");
    Path operator =
        Files.writeString(dir.resolve("operator.yaml"), "endpoints:\n  search:\n    target: 2s\n");
    String before = System.getProperty(OperatorConfigFile.PROPERTY);
    System.setProperty(OperatorConfigFile.PROPERTY, operator.toString());
    try {
      OverloadHandler handler =
          OverloadHandler.builder()
              .baseDirectory(dir)
              .configFile(Path.of("overload.yaml"))
              .handler(new EchoContext())
              .build();
      assertThat(handler.parseSettings().config().endpoints().get("search").targetNanos())
          .isEqualTo(2_000_000_000L);
      System.setProperty(OperatorConfigFile.PROPERTY, dir.resolve("missing.yaml").toString());
      assertThatThrownBy(() -> OverloadHandler.builder().build())
          .isInstanceOf(OverloadConfigException.class)
          .hasMessageContaining(OperatorConfigFile.PROPERTY)
          .hasMessageContaining("no such file");
    } finally {
      if (before == null) {
        System.clearProperty(OperatorConfigFile.PROPERTY);
      } else {
        System.setProperty(OperatorConfigFile.PROPERTY, before);
      }
    }
  }
}
