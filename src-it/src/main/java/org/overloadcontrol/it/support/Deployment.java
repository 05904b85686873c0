package org.overloadcontrol.it.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What to deploy and how: a WAR file or an exploded web-application directory, the context
 * path, the port (0 for an ephemeral one) and the size of the container's request thread pool.
 * The container always listens on 127.0.0.1 only.
 *
 * @param webApp a {@code .war} file or a directory holding {@code WEB-INF/web.xml}
 * @param contextPath {@code ""} for the root context, else {@code "/name"}
 * @param port the port to listen on, 0 for an ephemeral one
 * @param maxThreads the most request threads; kept small, the machines we run on are small
 * @param hooks what an experiment adds around the application (request log, peer guards)
 * @param gracefulStop how long a stop waits for the requests in progress, as a standalone
 *     container configured for a graceful stop does (Jetty: its {@code graceful} module, a
 *     {@code GracefulHandler} and the server's stop timeout; Tomcat: the service's
 *     {@code gracefulStopAwaitMillis}); zero for the containers' plain stop
 * @param virtualThreads whether the container runs requests on virtual threads (Java 21+):
 *     Tomcat's {@code useVirtualThreads}, Jetty's {@code VirtualThreadPool}; then {@code
 *     maxThreads} bounds nothing. By default as the system property {@value
 *     #THREADS_PROPERTY} says ({@code virtual}), so that one run can take a whole suite there
 */
public record Deployment(
    Path webApp,
    String contextPath,
    int port,
    int maxThreads,
    ContainerHooks hooks,
    Duration gracefulStop,
    boolean virtualThreads) {

  /** The host every container binds to. */
  public static final String HOST = "127.0.0.1";

  /** Request threads unless told otherwise: enough to queue, few enough for two cores. */
  public static final int DEFAULT_MAX_THREADS = 48;

  /** {@code -Dit.threads=virtual} runs every container of the run on virtual threads. */
  public static final String THREADS_PROPERTY = "it.threads";

  public Deployment {
    Objects.requireNonNull(webApp, "webApp");
    Objects.requireNonNull(contextPath, "contextPath");
    Objects.requireNonNull(hooks, "hooks");
    Objects.requireNonNull(gracefulStop, "gracefulStop");
    if (!contextPath.isEmpty() && (!contextPath.startsWith("/") || contextPath.endsWith("/"))) {
      throw new IllegalArgumentException(
          "contextPath must be \"\" or \"/name\", was \"" + contextPath + "\"");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
    }
    if (maxThreads < 8) {
      throw new IllegalArgumentException("maxThreads must be >= 8, was " + maxThreads);
    }
    if (gracefulStop.isNegative()) {
      throw new IllegalArgumentException("gracefulStop must be >= 0, was " + gracefulStop);
    }
    if (virtualThreads && Runtime.version().feature() < 21) {
      throw new IllegalArgumentException(
          "virtual threads need Java 21 or later, this is " + Runtime.version());
    }
  }

  /** Deploys {@code webApp} at the root context on an ephemeral port. */
  public static Deployment of(Path webApp) {
    return new Deployment(
        webApp,
        "",
        0,
        DEFAULT_MAX_THREADS,
        ContainerHooks.NONE,
        Duration.ZERO,
        "virtual".equals(System.getProperty(THREADS_PROPERTY)));
  }

  public Deployment withContextPath(String path) {
    return new Deployment(webApp, path, port, maxThreads, hooks, gracefulStop, virtualThreads);
  }

  public Deployment withPort(int newPort) {
    return new Deployment(
        webApp, contextPath, newPort, maxThreads, hooks, gracefulStop, virtualThreads);
  }

  public Deployment withMaxThreads(int threads) {
    return new Deployment(webApp, contextPath, port, threads, hooks, gracefulStop, virtualThreads);
  }

  /** On virtual threads ({@code true}, Java 21+) or on the bounded pool. */
  public Deployment withVirtualThreads(boolean virtual) {
    return new Deployment(webApp, contextPath, port, maxThreads, hooks, gracefulStop, virtual);
  }

  public Deployment withHooks(ContainerHooks newHooks) {
    return new Deployment(
        webApp, contextPath, port, maxThreads, newHooks, gracefulStop, virtualThreads);
  }

  /** Stops gracefully, waiting up to {@code timeout} for the requests in progress. */
  public Deployment withGracefulStop(Duration timeout) {
    return new Deployment(webApp, contextPath, port, maxThreads, hooks, timeout, virtualThreads);
  }

  /** Whether the web application is a WAR file (else an exploded directory). */
  public boolean isWarFile() {
    return Files.isRegularFile(webApp);
  }

  /** Fails early, with the path, when there is nothing to deploy. */
  void requireDeployable() {
    if (isWarFile()) {
      return;
    }
    if (!Files.isRegularFile(webApp.resolve("WEB-INF").resolve("web.xml"))) {
      throw new IllegalArgumentException(
          "not a WAR file nor a web-application directory with"
              + " WEB-INF/web.xml: "
              + webApp.toAbsolutePath());
    }
  }
}
