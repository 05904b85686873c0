package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContainerInitializer;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.internal.Version;
import org.glassfish.jersey.servlet.ServletContainer;
import org.jboss.resteasy.plugins.servlet.ResteasyServletInitializer;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Jakarta REST 4.0 (Jakarta EE 11) behind the overload filter in Jetty 12.1's ee11 environment,
 * over HTTP on 127.0.0.1: Jersey 4 and RESTEasy 7, each with overload-jakarta-rest's resource
 * and checks (its EE 10 tests, {@code JerseyOnJettyIT} and {@code ResteasyOnTomcatIT}).
 */
class RestOnJetty121IT {

  @Test
  void jersey4() throws Exception {
    assertThat(Version.getVersion()).as("the Jersey on the class path").startsWith("4.");
    ServletHolder jersey = new ServletHolder("jersey", ServletContainer.class);
    jersey.setInitParameter("jakarta.ws.rs.Application", ShopApplication.class.getName());
    jersey.setAsyncSupported(true);
    run(jersey, null);
  }

  @Test
  void resteasy7() throws Exception {
    assertThat(ResteasyServletInitializer.class.getPackage().getImplementationVersion())
        .as("the RESTEasy on the class path")
        .startsWith("7.");
    run(null, new ResteasyServletInitializer());
  }

  /** Jetty with the filter and one implementation: its servlet, or its initializer. */
  private static void run(ServletHolder servlet, ServletContainerInitializer initializer)
      throws Exception {
    assertThat(Server.getVersion()).as("the Jetty on the class path").startsWith("12.1.");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    // What annotation scanning does in a WAR: the container hands the initializers the
    // @Path and Application classes.
    context.addServletContainerInitializer(
        new OverloadRestInitializer(), ShopResource.class, ShopApplication.class);
    if (initializer != null) {
      context.addServletContainerInitializer(
          initializer, ShopResource.class, ShopApplication.class);
    }
    FilterHolder filter = new FilterHolder(OverloadFilter.class);
    filter.setName("overload");
    filter.setAsyncSupported(true);
    // As the EE 10 tests: the rate controller, 5 requests/s, one token deep.
    filter.setInitParameter("admission.controller", "rate");
    filter.setInitParameter("controller.initialRate", "5");
    filter.setInitParameter("controller.bucketDepth", "1");
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    if (servlet != null) {
      context.addServlet(servlet, "/api/*");
    }
    server.setHandler(context);
    server.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/api/shop/");
      ShopChecks.methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(base, "ShopResource");
    } finally {
      server.stop();
    }
  }
}
