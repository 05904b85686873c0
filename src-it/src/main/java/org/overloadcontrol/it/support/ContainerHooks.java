package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContainerInitializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.overloadcontrol.it.serverlog.ServerRequestLog;

/**
 * What an experiment adds to a container around the deployed application, so that peers of
 * our filter can guard the same WAR: a server-side request log on the container itself,
 * servlet container initializers that register filters before the application's own (e.g. a
 * concurrency-limit filter), and, in Jetty only, a handler wrapped around the web application
 * (e.g. Jetty's {@code QoSHandler}).
 *
 * @param requestLog the log every request is recorded in, or null
 * @param initializers run when the application starts, before its web.xml filters apply
 * @param jettyWrapper wraps the web application's handler in Jetty, or null; Tomcat refuses a
 *     deployment that has one
 */
public record ContainerHooks(
    ServerRequestLog requestLog,
    List<ServletContainerInitializer> initializers,
    UnaryOperator<Handler> jettyWrapper) {

  /** Nothing added. */
  public static final ContainerHooks NONE = new ContainerHooks(null, List.of(), null);

  public ContainerHooks {
    initializers = List.copyOf(initializers);
  }

  public ContainerHooks withRequestLog(ServerRequestLog log) {
    return new ContainerHooks(Objects.requireNonNull(log), initializers, jettyWrapper);
  }

  public ContainerHooks withInitializer(ServletContainerInitializer initializer) {
    List<ServletContainerInitializer> all = new ArrayList<>(initializers);
    all.add(Objects.requireNonNull(initializer));
    return new ContainerHooks(requestLog, all, jettyWrapper);
  }

  public ContainerHooks withJettyWrapper(UnaryOperator<Handler> wrapper) {
    return new ContainerHooks(requestLog, initializers, Objects.requireNonNull(wrapper));
  }
}
