package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import org.eclipse.jetty.client.ContentResponse;
import org.junit.jupiter.api.Test;

/** Session-aware admission through the Jetty handler: the cookie, recognition, a full table. */
class SessionHandlerTest {

  @Test
  void anAdmittedSessionIsRecognisedByItsCookieAndANewOneIsRefusedWhenTheTableIsFull()
      throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder()
            .put("endpoints.default.target", "10s")
            .put("sessions.enabled", "true")
            .put("sessions.maxSessions", "1")
            .put("sessions.completionPaths", "/confirm")
            .handler(new OverloadHandlerTest.EchoContext())
            .build();
    try (JettyHarness jetty = new JettyHarness(handler)) {
      ContentResponse first = jetty.get("/home");
      assertThat(first.getStatus()).isEqualTo(200);
      String setCookie = first.getHeaders().get("Set-Cookie");
      assertThat(setCookie).startsWith("oc_session=").contains("HttpOnly");
      String cookie = setCookie.substring(0, setCookie.indexOf(';'));

      ContentResponse newcomer = jetty.get("/home");
      assertThat(newcomer.getStatus()).isEqualTo(503);
      assertThat(newcomer.getHeaders().get("Retry-After")).isNotNull();
      assertThat(
              jetty.request("/home").headers(h -> h.put("Cookie", cookie + "x")).send().getStatus())
          .isEqualTo(503);

      assertThat(jetty.request("/cart").headers(h -> h.put("Cookie", cookie)).send().getStatus())
          .isEqualTo(200);
      assertThat(jetty.request("/confirm").headers(h -> h.put("Cookie", cookie)).send().getStatus())
          .isEqualTo(200);
      await("the session completed")
          .until(() -> handler.runtime().engine().sessions().completedCount() == 1);
      assertThat(jetty.get("/home").getStatus()).isEqualTo(200);
      assertThat(handler.runtime().engine().sessions().newSessionsRefusedCount()).isEqualTo(2);
      assertThat(handler.runtime().engine().sessions().midSessionRefusalCount()).isZero();
    }
  }
}
