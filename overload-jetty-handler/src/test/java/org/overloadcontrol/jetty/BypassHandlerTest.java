package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;

/** Probe paths pass the handler untouched while the endpoint behind it refuses the rest. */
class BypassHandlerTest {

  /** Says whether the request reached it under overload control. */
  static final class Probe extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      JettyHarness.answer(
          response,
          callback,
          request.getAttribute(OverloadContext.ATTRIBUTE) == null ? "bypassed" : "controlled");
      return true;
    }
  }

  @Test
  void probesAreNeitherControlledNorRefused() throws Exception {
    OverloadHandler handler =
        OverloadHandler.builder()
            .put("admission.controller", "rate") // an instant refusal by the bucket
            .put("endpoints.default.target", "100ms")
            .put("controller.initialRate", "0.1")
            .put("bypass.paths", "/healthz, /ops/*")
            .handler(new Probe())
            .build();
    try (JettyHarness jetty = new JettyHarness(handler)) {
      assertThat(jetty.get("/a").getContentAsString()).isEqualTo("controlled"); // one token
      assertThat(jetty.get("/a").getStatus()).isEqualTo(503);
      for (int i = 0; i < 5; i++) {
        assertThat(jetty.get("/healthz").getContentAsString()).isEqualTo("bypassed");
        assertThat(jetty.get("/ops/ready").getContentAsString()).isEqualTo("bypassed");
      }
      assertThat(jetty.get("/readyz").getStatus()).isEqualTo(503); // not configured: controlled
    }
  }
}
