package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The same Spring Boot application on embedded Jetty 12 (the servlet web server factory a
 * Jetty user declares; Tomcat's auto-configuration then backs off), over HTTP on 127.0.0.1:
 * the starter does on Jetty what {@link StarterOverHttp} checks.
 */
class SpringBootStarterJettyIT extends StarterOverHttp {

  /** Jetty instead of the default Tomcat, both being on the test class path. */
  @Configuration(proxyBeanMethods = false)
  static class OnJetty {
    @Bean
    JettyServletWebServerFactory jetty() {
      return new JettyServletWebServerFactory();
    }
  }

  @Override
  Class<?>[] server() {
    return new Class<?>[] {OnJetty.class};
  }

  /** Jetty keeps the connection after a 503. */
  @Override
  int refusalStatus() {
    return 503;
  }

  @Test
  void theServerIsJetty() {
    assertThat(webServer()).isInstanceOf(JettyWebServer.class);
  }
}
