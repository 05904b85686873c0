package org.overloadcontrol.rest;

import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Jersey 3 behind the overload filter in Jetty 12, over HTTP on 127.0.0.1: the resource
 * methods of one class are separate endpoints with their own target and class, read from the
 * method annotations by {@link OverloadRestInitializer} as the container starts.
 */
class JerseyOnJettyIT {

  private static Server server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    // What annotation scanning does in a WAR: the container hands the initializer the
    // @Path and Application classes.
    context.addServletContainerInitializer(
        new OverloadRestInitializer(), ShopResource.class, ShopApplication.class);
    FilterHolder filter = new FilterHolder(OverloadFilter.class);
    filter.setName("overload");
    filter.setAsyncSupported(true);
    // Every endpoint with a target starts at 5 requests/s, one token deep: the rate
    // controller refuses at once what arrives faster, whatever the response times.
    filter.setInitParameter("admission.controller", "rate");
    filter.setInitParameter("controller.initialRate", "5");
    filter.setInitParameter("controller.bucketDepth", "1");
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder jersey = new ServletHolder("jersey", ServletContainer.class);
    jersey.setInitParameter("jakarta.ws.rs.Application", ShopApplication.class.getName());
    jersey.setAsyncSupported(true);
    context.addServlet(jersey, "/api/*");
    server.setHandler(context);
    server.start();
    base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/api/shop/");
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
  }

  @Test
  void eachResourceMethodHasItsOwnEndpointTargetAndClassAndOnlyTheOverloadedOneIsShed()
      throws Exception {
    ShopChecks.methodsAreSeparateEndpointsAndOnlyTheOverloadedOneIsShed(base, "ShopResource");
  }
}
