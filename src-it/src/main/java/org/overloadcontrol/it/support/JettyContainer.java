package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.net.URI;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.plus.webapp.EnvConfiguration;
import org.eclipse.jetty.ee10.plus.webapp.PlusConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A web application in embedded Jetty 12 (ee10 {@link WebAppContext}), the way a standalone
 * Jetty with the {@code ee10-deploy} and {@code ee10-annotations} modules would run it: WAR
 * extracted, web.xml and servlet annotations honoured, the application's own class loader
 * first. One connector with one acceptor and one selector on 127.0.0.1, and a bounded
 * {@link QueuedThreadPool}.
 */
final class JettyContainer implements WebContainer {

  private final Server server;
  private final WebAppContext webApp;
  private final ServerConnector connector;
  private final Path workDir;
  private final String contextPath;

  private JettyContainer(
      Server server,
      WebAppContext webApp,
      ServerConnector connector,
      Path workDir,
      String contextPath) {
    this.server = server;
    this.webApp = webApp;
    this.connector = connector;
    this.workDir = workDir;
    this.contextPath = contextPath;
  }

  static JettyContainer start(Deployment deployment) throws Exception {
    deployment.requireDeployable();
    Server server = new Server(JettyThreads.of(deployment));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    connector.setPort(deployment.port());
    server.addConnector(connector);

    Path workDir = WorkDirectory.create("jetty-webapp");
    WebAppContext webApp = new WebAppContext();
    webApp.setContextPath(deployment.contextPath().isEmpty() ? "/" : deployment.contextPath());
    webApp.setWar(deployment.webApp().toAbsolutePath().toString());
    webApp.setTempDirectory(workDir.toFile());
    // The application's own class loader above a parent that hides our SLF4J from it, as a
    // standalone Jetty hides its own (WebAppParentLoader).
    webApp.setClassLoader(
        new WebAppClassLoader(
            new WebAppParentLoader(JettyContainer.class.getClassLoader()), webApp));
    // Servlets declared with @WebServlet must be found, as Tomcat finds them.
    webApp.addConfiguration(
        new EnvConfiguration(), new PlusConfiguration(), new AnnotationConfiguration());
    // A filter or servlet that fails in init must fail the start, not leave a 503 behind.
    webApp.setThrowUnavailableOnStartupException(true);
    ContainerHooks hooks = deployment.hooks();
    hooks.initializers().forEach(webApp::addServletContainerInitializer);
    Handler application =
        hooks.jettyWrapper() == null ? webApp : hooks.jettyWrapper().apply(webApp);
    if (!deployment.gracefulStop().isZero()) {
      // What jetty-home's graceful module does: requests in progress may finish, new ones get
      // 503, until they are done or the stop timeout passes.
      application = new GracefulHandler(application);
      server.setStopTimeout(deployment.gracefulStop().toMillis());
    }
    server.setHandler(application);
    if (hooks.requestLog() != null) {
      server.setRequestLog(hooks.requestLog().jetty());
    }
    server.setStopAtShutdown(true);
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      WorkDirectory.delete(workDir);
      throw new IllegalStateException("Jetty could not start " + deployment.webApp(), e);
    }
    if (!webApp.isAvailable()) {
      Throwable cause = webApp.getUnavailableException();
      stopQuietly(server);
      WorkDirectory.delete(workDir);
      throw new IllegalStateException(
          "Jetty started but " + deployment.webApp() + " is unavailable", cause);
    }
    return new JettyContainer(server, webApp, connector, workDir, deployment.contextPath());
  }

  @Override
  public ContainerKind kind() {
    return ContainerKind.JETTY;
  }

  @Override
  public int busyThreads() {
    return server.getThreadPool() instanceof QueuedThreadPool pool ? pool.getBusyThreads() : -1;
  }

  @Override
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public URI baseUri() {
    return URI.create("http://" + Deployment.HOST + ":" + port() + contextPath + "/");
  }

  @Override
  public ServletContext servletContext() {
    return webApp.getServletContext();
  }

  @Override
  public void close() {
    stopQuietly(server);
    WorkDirectory.delete(workDir);
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping is best effort: the JVM's shutdown hook stops whatever is left.
    }
  }

  @Override
  public String toString() {
    return "Jetty " + Server.getVersion() + " at " + baseUri();
  }
}
