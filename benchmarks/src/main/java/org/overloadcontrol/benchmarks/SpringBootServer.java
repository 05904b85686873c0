package org.overloadcontrol.benchmarks;

import java.util.Map;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The end-to-end benchmark's Spring Boot variants ({@code -De2e.spring=true}): a trivial
 * {@code @RestController} in a Spring Boot application on embedded Jetty, with the starter (its
 * filter, every handler method an endpoint; a 10 s target on the one under load and the
 * variants' 64 permits) or without it ({@code overload.spring.enabled=false}). Jetty, so the
 * variant is a Jetty {@link Server} like the others: the same pool size, one acceptor, one
 * selector; stopping the server closes the application.
 */
final class SpringBootServer {

  private SpringBootServer() {}

  /** The application: one controller and the auto-configuration, the starter's included. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  @Import(Hello.class)
  static class Application {
    /** The pool every variant has, named so the profiler can tell the variants apart. */
    @Bean
    WebServerFactoryCustomizer<JettyServletWebServerFactory> pool(
        @Value("${e2e.pool}") String name) {
      return factory -> {
        QueuedThreadPool threads = new QueuedThreadPool(200, 8);
        threads.setName(name);
        factory.setThreadPool(threads);
      };
    }
  }

  /** The handler under load. */
  @RestController
  static class Hello {
    @GetMapping("/hello")
    public String hello() {
      return "ok\n";
    }
  }

  /**
   * Fails unless Spring Boot is on the class path: the shaded jar leaves it out (its
   * {@code spring.factories} files cannot be merged), so these variants run from the module's
   * class path.
   */
  static void requireSpringBoot() {
    try {
      Class.forName("org.springframework.boot.SpringApplication");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "e2e.spring needs Spring Boot on the class path: run EndToEndOverhead with"
              + " -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt)"
              + " (docs/performance.md), not with the shaded benchmarks.jar",
          e);
    }
  }

  /** Starts the application on 127.0.0.1 and an ephemeral port; returns its Jetty server. */
  static Server start(boolean starter, String poolName) {
    ConfigurableApplicationContext app =
        new SpringApplicationBuilder(Application.class)
            .logStartupInfo(false)
            .properties(
                Map.of(
                    "server.address", "127.0.0.1",
                    "server.port", "0",
                    "server.jetty.threads.acceptors", "1",
                    "server.jetty.threads.selectors", "1",
                    "spring.main.banner-mode", "off",
                    "e2e.pool", poolName,
                    "overload.spring.enabled", Boolean.toString(starter),
                    "overload.queue.permits", Integer.toString(EndToEndOverhead.PERMITS),
                    "overload.endpoints.Hello#hello.target", "10s"))
            .run();
    Server server =
        ((JettyWebServer) ((ServletWebServerApplicationContext) app).getWebServer()).getServer();
    server.addEventListener(
        new LifeCycle.Listener() {
          @Override
          public void lifeCycleStopped(LifeCycle event) {
            app.close();
          }
        });
    return server;
  }
}
