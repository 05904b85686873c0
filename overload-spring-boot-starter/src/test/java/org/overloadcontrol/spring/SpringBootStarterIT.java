package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.AdmissionSettings;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot 3 application on embedded Tomcat (Spring Boot's default), over HTTP on
 * 127.0.0.1, with the starter on its class path and nothing else: what {@link StarterOverHttp}
 * checks on every server, and a bad {@code overload.*} property stops the application naming
 * the key.
 */
class SpringBootStarterIT extends StarterOverHttp {

  @Override
  Class<?>[] server() {
    return new Class<?>[0];
  }

  @Test
  void theServerIsTomcat() {
    assertThat(webServer()).isInstanceOf(TomcatWebServer.class);
  }

  @Test
  void theCeilingIsUnderTomcatsThreadsThoughItsJmxIsOff() {
    // Spring Boot turns Tomcat's JMX registry off, so only the starter can tell the filter.
    try (ConfigurableApplicationContext app = run("server.tomcat.threads.max=50")) {
      OverloadEngine engine =
          ((OverloadRuntime)
                  ((ServletWebServerApplicationContext) app)
                      .getServletContext()
                      .getAttribute(OverloadRuntime.ATTRIBUTE))
              .engine();
      assertThat(AdmissionSettings.from(engine.config()).groupOf("any").maxLimit()).isEqualTo(48);
    }
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
