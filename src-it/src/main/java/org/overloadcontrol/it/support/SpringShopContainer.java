package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.startup.Tomcat;

/**
 * The sample shop in its Spring Boot form (module {@code sample-spring-boot}: the WAR's pages
 * as Spring MVC handler methods under the starter) running in this JVM on its embedded Tomcat,
 * for the main job ({@code -Dshop.form=spring}) and the experiments
 * ({@code -Dexperiment.shop=spring}). The application is on the class path only in the
 * {@code shop} and {@code experiments} profiles, so it is started by name: the default test
 * class path stays free of Spring, whose servlet-container initializer the WAR tests' containers
 * would otherwise find.
 */
public final class SpringShopContainer implements WebContainer {

  /** The Spring Boot application class of the shop. */
  public static final String APPLICATION = "org.overloadcontrol.sample.spring.SpringShop";

  private final AutoCloseable application;
  private final Tomcat tomcat;
  private final ServletContext servletContext;
  private final String contextPath;

  private SpringShopContainer(
      AutoCloseable application, Tomcat tomcat, ServletContext servletContext, String contextPath) {
    this.application = application;
    this.tomcat = tomcat;
    this.servletContext = servletContext;
    this.contextPath = contextPath;
  }

  /**
   * Starts the shop at {@code contextPath} ({@code ""} or {@code "/name"}) on 127.0.0.1:port
   * (0 for an ephemeral one) with at most {@code maxThreads} request threads; the request log
   * of {@code hooks}, if any, is added to Tomcat's engine as in {@link TomcatContainer}. The
   * shop reads its settings and {@code overload.configFile} from the system properties, as
   * the WAR does.
   *
   * @throws IllegalArgumentException for hooks only a WAR deployment can take (a Jetty
   *     wrapper, servlet-container initializers)
   */
  public static SpringShopContainer start(
      String contextPath, int port, int maxThreads, ContainerHooks hooks) throws Exception {
    if (hooks.jettyWrapper() != null || !hooks.initializers().isEmpty()) {
      throw new IllegalArgumentException(
          "the Spring Boot shop takes no Jetty wrapper and no"
              + " servlet-container initializer: run such a guard against the WAR");
    }
    Class<?> app;
    try {
      app = Class.forName(APPLICATION);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "the Spring Boot shop is not on the class path: run with"
              + " the shop or experiments profile, which add sample-spring-boot",
          e);
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "--server.address=" + Deployment.HOST,
                "--server.port=" + port,
                "--server.tomcat.threads.max=" + maxThreads,
                "--server.tomcat.threads.min-spare=4"));
    if (!contextPath.isEmpty()) {
      args.add("--server.servlet.context-path=" + contextPath);
    }
    Class<?> spring = Class.forName("org.springframework.boot.SpringApplication");
    Object context =
        unwrapped(
            () ->
                spring
                    .getMethod("run", Class.class, String[].class)
                    .invoke(null, app, args.toArray(String[]::new)));
    AutoCloseable application = (AutoCloseable) context;
    try {
      Object webServer = call(context, "getWebServer");
      Tomcat tomcat = (Tomcat) call(webServer, "getTomcat");
      if (hooks.requestLog() != null) {
        tomcat.getEngine().getPipeline().addValve(hooks.requestLog().tomcat());
      }
      return new SpringShopContainer(
          application, tomcat, (ServletContext) call(context, "getServletContext"), contextPath);
    } catch (Exception | Error e) {
      application.close();
      throw e;
    }
  }

  private static Object call(Object target, String method) throws Exception {
    Method m = target.getClass().getMethod(method);
    return unwrapped(() -> m.invoke(target));
  }

  private interface Reflective {
    Object invoke() throws Exception;
  }

  private static Object unwrapped(Reflective call) throws Exception {
    try {
      return call.invoke();
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  @Override
  public ContainerKind kind() {
    return ContainerKind.TOMCAT;
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
    return servletContext;
  }

  @Override
  public int busyThreads() {
    return TomcatContainer.busyThreads(tomcat);
  }

  @Override
  public void close() {
    try {
      application.close();
    } catch (Exception e) {
      System.err.println("closing the Spring Boot shop: " + e);
    }
  }

  @Override
  public String toString() {
    return "Spring Boot shop on embedded Tomcat";
  }
}
