package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.net.URI;
import java.nio.file.Path;
import org.eclipse.jetty.ee.webapp.WebAppClassLoader;
import org.eclipse.jetty.ee11.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A web application in embedded Jetty 12.1's ee11 environment (Servlet 6.1), as
 * {@code JettyContainer} runs one in ee10: the application's own class loader above a parent
 * that hides the test class path's SLF4J, a failed filter {@code init} failing the start. In
 * this package for {@link WebAppParentLoader} and {@link WorkDirectory}; web.xml only (the
 * matrix's application is metadata-complete), so no annotation scanning.
 */
final class Ee11JettyContainer implements WebContainer {

  private final Server server;
  private final WebAppContext webApp;
  private final ServerConnector connector;
  private final Path workDir;

  private Ee11JettyContainer(
      Server server, WebAppContext webApp, ServerConnector connector, Path workDir) {
    this.server = server;
    this.webApp = webApp;
    this.connector = connector;
    this.workDir = workDir;
  }

  /** Deploys {@code deployment} at the root context and starts Jetty. */
  static Ee11JettyContainer start(Deployment deployment) throws Exception {
    deployment.requireDeployable();
    Server server = new Server(JettyThreads.of(deployment));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost(Deployment.HOST);
    connector.setPort(deployment.port());
    server.addConnector(connector);
    Path workDir = WorkDirectory.create("jetty-ee11-webapp");
    WebAppContext webApp = new WebAppContext();
    webApp.setContextPath("/");
    webApp.setWar(deployment.webApp().toAbsolutePath().toString());
    webApp.setTempDirectory(workDir.toFile());
    webApp.setClassLoader(
        new WebAppClassLoader(
            new WebAppParentLoader(Ee11JettyContainer.class.getClassLoader()), webApp));
    webApp.setThrowUnavailableOnStartupException(true);
    server.setHandler(webApp);
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      WorkDirectory.delete(workDir);
      throw new IllegalStateException("Jetty could not start " + deployment.webApp(), e);
    }
    return new Ee11JettyContainer(server, webApp, connector, workDir);
  }

  @Override
  public ContainerKind kind() {
    return ContainerKind.JETTY;
  }

  @Override
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public URI baseUri() {
    return URI.create("http://" + Deployment.HOST + ":" + port() + "/");
  }

  @Override
  public ServletContext servletContext() {
    return webApp.getServletContext();
  }

  @Override
  public int busyThreads() {
    return server.getThreadPool() instanceof QueuedThreadPool pool ? pool.getBusyThreads() : -1;
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
      // Best effort, as JettyContainer's.
    }
  }

  @Override
  public String toString() {
    return "Jetty " + Server.getVersion() + " (ee11) at " + baseUri();
  }
}
