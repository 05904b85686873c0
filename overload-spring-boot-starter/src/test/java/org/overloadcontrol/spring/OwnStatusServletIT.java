package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.servlet.OverloadStatusServlet;
import org.overloadcontrol.spring.shop.ShopApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application that registers the status servlet itself, as the README told Spring users
 * before the starter did: the starter's own registration backs off, so the application starts
 * (two servlets on one mapping would stop the web server) and its servlet answers.
 */
class OwnStatusServletIT {

  /** The application's own registration, at a path of its choosing, under its own bean name. */
  @Configuration(proxyBeanMethods = false)
  static class OwnServlet {
    @Bean
    ServletRegistrationBean<OverloadStatusServlet> statusServlet() {
      ServletRegistrationBean<OverloadStatusServlet> registration =
          new ServletRegistrationBean<>(new OverloadStatusServlet(), "/overload/*");
      registration.setName("my-status");
      return registration;
    }
  }

  @Test
  void theStartersStatusServletBacksOffForTheApplications() throws Exception {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(ShopApplication.class)
            .sources(OwnServlet.class)
            .properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off")
            .run()) {
      assertThat(app.getBeanNamesForType(ServletRegistrationBean.class))
          .contains("statusServlet")
          .doesNotContain("overloadStatusServletRegistration");
      URI status =
          URI.create(
              "http://127.0.0.1:"
                  + app.getEnvironment().getProperty("local.server.port")
                  + "/overload/status");
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).startsWith("{").contains("\"endpoints\"");
    }
  }
}
