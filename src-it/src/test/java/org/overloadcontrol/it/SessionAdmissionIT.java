package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.AsyncContext;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.session.SessionGate;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.HeldAsyncServlet;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Session-aware admission through the filter in a real Jetty and Tomcat: under overload (the
 * one permit of the concurrency limit held, the session table full), a session that got in
 * walks home → cart → confirm with its signed cookie while new sessions, and a forged cookie,
 * are refused at their first request; its confirmation frees its place for a new session.
 */
class SessionAdmissionIT {

  @TempDir Path apps;

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aSessionThatGotInCompletesItsPurchaseWhileNewSessionsAreRefused(ContainerKind kind)
      throws Exception {
    Map<String, String> params =
        new HashMap<>(
            Map.of(
                "admission.maxLimit",
                "1",
                "admission.initialLimit",
                "1",
                "sessions.enabled",
                "true",
                "sessions.maxSessions",
                "1",
                "sessions.completionPaths",
                "/confirm"));
    Map<String, String> quick = Map.of("serviceTimeMillis", "1");
    for (String e : new String[] {"home", "cart", "confirm", "held"}) {
      params.put("endpoints." + e + ".target", "20s");
    }
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(params)
            .withServlet("home", SleepServlet.class, quick, "/home")
            .withServlet("cart", SleepServlet.class, quick, "/cart")
            .withServlet("confirm", SleepServlet.class, quick, "/confirm")
            .withServlet("held", HeldAsyncServlet.class, Map.of(), "/held")
            .writeUnder(apps, kind.name());
    HeldAsyncServlet.HELD.clear();
    HttpClient http = HttpClient.newHttpClient();
    try (WebContainer container = kind.start(Deployment.of(dir))) {
      SessionGate sessions = FilterEngine.of(container.servletContext()).sessions();

      HttpResponse<String> home = get(http, container, "home", null);
      assertThat(home.statusCode()).isEqualTo(200);
      String setCookie = home.headers().firstValue("Set-Cookie").orElseThrow();
      assertThat(setCookie).startsWith("oc_session=").contains("HttpOnly");
      String cookie = setCookie.substring(0, setCookie.indexOf(';'));

      // Overload: the session's own long request holds the group's only permit.
      CompletableFuture<HttpResponse<String>> held =
          http.sendAsync(request(container, "held", cookie), HttpResponse.BodyHandlers.ofString());
      AsyncContext holding = HeldAsyncServlet.HELD.poll(10, TimeUnit.SECONDS);
      assertThat(holding).as("the long request runs").isNotNull();

      HttpResponse<String> newcomer = get(http, container, "home", null);
      assertThat(newcomer.statusCode()).isEqualTo(kind.refusalStatus());
      assertThat(newcomer.headers().firstValue("Retry-After")).isPresent();
      assertThat(newcomer.headers().firstValue("Set-Cookie")).isEmpty();
      String forged =
          cookie.substring(0, cookie.length() - 2) + (cookie.endsWith("AA") ? "BB" : "AA");
      assertThat(get(http, container, "home", forged).statusCode()).isEqualTo(kind.refusalStatus());

      // The admitted session's next step waits for the permit instead of being refused.
      CompletableFuture<HttpResponse<String>> cart =
          http.sendAsync(request(container, "cart", cookie), HttpResponse.BodyHandlers.ofString());
      HeldAsyncServlet.answer(holding);
      assertThat(held.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(cart.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(get(http, container, "confirm", cookie).statusCode()).isEqualTo(200);

      assertThat(sessions.completedCount()).isEqualTo(1);
      assertThat(sessions.midSessionRefusalCount()).isZero();
      assertThat(sessions.newSessionsRefusedCount()).isEqualTo(2);
      // Its confirmation freed its place: a new session gets in.
      HttpResponse<String> next = get(http, container, "home", null);
      assertThat(next.statusCode()).isEqualTo(200);
      assertThat(next.headers().firstValue("Set-Cookie")).isPresent();
    }
  }

  private static HttpRequest request(WebContainer c, String path, String cookie) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(c.baseUri().resolve(path)).timeout(Duration.ofSeconds(15));
    if (cookie != null) {
      b.header("Cookie", cookie);
    }
    return b.build();
  }

  private static HttpResponse<String> get(
      HttpClient http, WebContainer c, String path, String cookie) throws Exception {
    return http.send(request(c, path, cookie), HttpResponse.BodyHandlers.ofString());
  }
}
