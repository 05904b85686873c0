package org.overloadcontrol.rest;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The Jakarta REST feature as an application deploys it: Jersey's servlet in Jetty 12 on
 * 127.0.0.1, the feature registered with the application's resources and closed when the
 * application stops. In this package for the feature's engine, which it keeps to itself.
 */
public final class RestInJetty implements AutoCloseable {

  private final OverloadRestFeature feature;
  private final Server server;
  private final ServerConnector connector;

  private RestInJetty(OverloadRestFeature feature, Server server, ServerConnector connector) {
    this.feature = feature;
    this.server = server;
    this.connector = connector;
  }

  /**
   * Starts {@code resource} behind the feature configured with {@code keys}; a non-zero
   * {@code gracefulStop} lets requests in progress finish within it at the stop.
   */
  public static RestInJetty start(
      Class<?> resource, Map<String, String> keys, Duration gracefulStop) throws Exception {
    OverloadRestFeature.Builder builder = OverloadRestFeature.builder().resources(resource);
    keys.forEach(builder::put);
    OverloadRestFeature feature = builder.start();
    Server server = new Server(new QueuedThreadPool(48, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(
        new ServletHolder(new ServletContainer(new ResourceConfig(resource).register(feature))),
        "/*");
    if (!gracefulStop.isZero()) {
      server.setHandler(new GracefulHandler(context));
      server.setStopTimeout(gracefulStop.toMillis());
    } else {
      server.setHandler(context);
    }
    server.start();
    return new RestInJetty(feature, server, connector);
  }

  /** The server's address, with a trailing slash. */
  public URI base() {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
  }

  public OverloadEngine engine() {
    return feature.runtime().engine();
  }

  /**
   * Closes the feature, which answers the requests waiting in its queues, then stops the server;
   * unchecked, so that try-with-resources has nothing to catch.
   */
  @Override
  public void close() {
    feature.close();
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the server", e);
    }
  }
}
