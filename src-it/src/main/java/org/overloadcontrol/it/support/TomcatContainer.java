package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleEvent;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardService;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * A web application in embedded Tomcat 10.1 ({@link Tomcat#addWebapp}), the way a standalone
 * Tomcat deploys it: WAR expanded under the host's appBase, web.xml and annotations honoured,
 * the default servlet and MIME types of Tomcat's global web.xml. One NIO connector on
 * 127.0.0.1 with a bounded thread pool; the base directory is a scratch directory.
 */
final class TomcatContainer implements WebContainer {

  private final Tomcat tomcat;
  private final Context context;
  private final Path baseDir;
  private final String contextPath;

  private TomcatContainer(Tomcat tomcat, Context context, Path baseDir, String contextPath) {
    this.tomcat = tomcat;
    this.context = context;
    this.baseDir = baseDir;
    this.contextPath = contextPath;
  }

  static TomcatContainer start(Deployment deployment) throws Exception {
    deployment.requireDeployable();
    ContainerHooks hooks = deployment.hooks();
    if (hooks.jettyWrapper() != null) {
      throw new IllegalArgumentException("a Jetty handler wrapper cannot run in Tomcat");
    }
    Path baseDir = WorkDirectory.create("tomcat-webapp");
    Tomcat tomcat = new Tomcat();
    try {
      tomcat.setBaseDir(baseDir.toString());
      Files.createDirectories(baseDir.resolve("webapps"));
      tomcat.setHostname(Deployment.HOST);
      // Web-app class loaders must see Tomcat's own classes through their parent; the system
      // class loader (Tomcat's default) does not hold them when we run inside Maven. The parent
      // hides our SLF4J, as a standalone Tomcat has none (WebAppParentLoader).
      tomcat
          .getServer()
          .setParentClassLoader(new WebAppParentLoader(TomcatContainer.class.getClassLoader()));
      Connector connector = new Connector("HTTP/1.1");
      connector.setPort(deployment.port());
      connector.setProperty("address", Deployment.HOST);
      connector.setProperty("maxThreads", Integer.toString(deployment.maxThreads()));
      connector.setProperty("minSpareThreads", "4");
      if (deployment.virtualThreads()) {
        // Tomcat's own virtual-thread executor: maxThreads then bounds nothing.
        connector.setProperty("useVirtualThreads", "true");
      }
      tomcat.setConnector(connector);
      if (!deployment.gracefulStop().isZero()) {
        // Connections with requests in progress may finish before they are closed.
        ((StandardService) tomcat.getService())
            .setGracefulStopAwaitMillis(deployment.gracefulStop().toMillis());
      }
      tomcat.getHost().setAutoDeploy(false);
      Context context =
          tomcat.addWebapp(
              deployment.contextPath(), deployment.webApp().toAbsolutePath().toString());
      context.addLifecycleListener(TomcatContainer::withoutJspUnlessPresent);
      if (context.getJarScanner() instanceof StandardJarScanner scanner) {
        // Only the application's own WEB-INF/lib is scanned, as in a standalone Tomcat; the
        // test class path is not part of the application.
        scanner.setScanClassPath(false);
      }
      hooks.initializers().forEach(i -> context.addServletContainerInitializer(i, null));
      if (hooks.requestLog() != null) {
        tomcat.getEngine().getPipeline().addValve(hooks.requestLog().tomcat());
      }
      tomcat.start();
      if (context.getState() != LifecycleState.STARTED) {
        throw new IllegalStateException(
            "Tomcat started but "
                + deployment.webApp()
                + " did not (state "
                + context.getState()
                + "); see the log above");
      }
      return new TomcatContainer(tomcat, context, baseDir, deployment.contextPath());
    } catch (Exception | Error e) {
      stopQuietly(tomcat);
      WorkDirectory.delete(baseDir);
      throw e;
    }
  }

  /**
   * Tomcat's defaults declare a JSP servlet even when Jasper is not on the class path, and then
   * fail to load it; we ship no Jasper, so the declaration goes (after the defaults are added,
   * before servlets load).
   */
  private static void withoutJspUnlessPresent(LifecycleEvent event) {
    if (!Lifecycle.BEFORE_START_EVENT.equals(event.getType())
        || !(event.getLifecycle() instanceof Context context)) {
      return;
    }
    try {
      Class.forName(
          "org.apache.jasper.servlet.JspServlet", false, TomcatContainer.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      Container jsp = context.findChild("jsp");
      if (jsp != null) {
        for (String pattern : context.findServletMappings()) {
          if ("jsp".equals(context.findServletMapping(pattern))) {
            context.removeServletMapping(pattern);
          }
        }
        context.removeChild(jsp);
      }
    }
  }

  @Override
  public ContainerKind kind() {
    return ContainerKind.TOMCAT;
  }

  @Override
  public int busyThreads() {
    return busyThreads(tomcat);
  }

  /** The connector executor's active threads, or -1 when it has no such pool. */
  static int busyThreads(Tomcat tomcat) {
    return tomcat.getConnector().getProtocolHandler().getExecutor()
            instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor pool
        ? pool.getActiveCount()
        : -1;
  }

  @Override
  public int port() {
    return tomcat.getConnector().getLocalPort();
  }

  @Override
  public URI baseUri() {
    return URI.create("http://" + Deployment.HOST + ":" + port() + contextPath + "/");
  }

  @Override
  public ServletContext servletContext() {
    return context.getServletContext();
  }

  @Override
  public void close() {
    stopQuietly(tomcat);
    WorkDirectory.delete(baseDir);
  }

  private static void stopQuietly(Tomcat tomcat) {
    try {
      tomcat.stop();
      tomcat.destroy();
    } catch (Exception e) {
      // Best effort, as for Jetty.
    }
  }

  @Override
  public String toString() {
    return ServerInfo.getServerInfo() + " at " + baseUri();
  }
}
