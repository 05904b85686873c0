package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.net.URI;

/**
 * A web application running in a real embedded servlet container on 127.0.0.1, for the
 * integration tests, experiments and the main-job launcher. Start one with
 * {@link ContainerKind#start}; {@link #close} stops the container and removes its work files.
 */
public interface WebContainer extends AutoCloseable {

  /** Which container this is. */
  ContainerKind kind();

  /** The port the container listens on (the ephemeral one it got, when asked for port 0). */
  int port();

  /** The web application's root, with a trailing slash: {@code http://127.0.0.1:port/ctx/}. */
  URI baseUri();

  /**
   * The deployed application's servlet context, to read what the application publishes there
   * (e.g. the overload engine). Objects in it may come from the web application's class loader.
   */
  ServletContext servletContext();

  /**
   * Container threads busy right now (Jetty: the pool's busy threads, selectors included;
   * Tomcat: the connector executor's active threads), to show what waiting requests hold.
   */
  int busyThreads();

  /** Stops the container; never throws. */
  @Override
  void close();
}
