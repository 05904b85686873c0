package org.overloadcontrol.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.SpringShopContainer;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The main job: deploys the built sample-shop WAR, with the overload filter in its web.xml,
 * into an embedded Jetty 12 on 127.0.0.1 and serves it until the process is stopped (Ctrl-C).
 *
 * <pre>
 *   mvn -Pshop -DskipTests verify -pl src-it -am                   # from the project root
 *   mvn -Pshop -DskipTests verify -pl src-it -am -Dshop.port=9090
 * </pre>
 *
 * <p>Arguments: the WAR file (default {@code sample-webapp/target/sample-webapp.war}).
 * System properties: {@code shop.port} (default 8080), {@code shop.container} ({@code jetty}
 * or {@code tomcat}, default jetty), {@code shop.form} ({@code war}, the default, or
 * {@code spring}: the same shop as a Spring Boot application on its embedded Tomcat, module
 * {@code sample-spring-boot}), and the shop's own settings ({@code shop.timeScale},
 * {@code shop.dbConnections}, {@code shop.dbWait}), which the shop reads itself.
 */
public final class ShopLauncher {

  private ShopLauncher() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(System.getProperty("shop.port", "8080").trim());
    String form = System.getProperty("shop.form", "war").trim();
    WebContainer shop =
        switch (form) {
          case "", "war" -> war(args, port);
          case "spring" ->
              SpringShopContainer.start(
                  "", port, Deployment.DEFAULT_MAX_THREADS, ContainerHooks.NONE);
          default ->
              throw new IllegalArgumentException(
                  "shop.form: 'war' or 'spring', was '" + form + "'");
        };
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  shop.close();
                  stopped.countDown();
                },
                "shop-shutdown"));
    System.out.println();
    System.out.println("  The sample shop runs at " + shop.baseUri() + "  (" + shop + ")");
    // Both forms map the status servlet at /overload/*, the dashboard at its root.
    System.out.println("  Its dashboard is at     " + shop.baseUri().resolve("overload/"));
    System.out.println("  Press Ctrl-C to stop.");
    System.out.println();
    stopped.await();
  }

  private static WebContainer war(String[] args, int port) throws Exception {
    Path war = Path.of(args.length > 0 ? args[0] : "sample-webapp/target/sample-webapp.war");
    if (!Files.isRegularFile(war)) {
      System.err.println(
          "No sample WAR at "
              + war.toAbsolutePath()
              + ": build it first (mvn -DskipTests package), or pass its path.");
      System.exit(2);
    }
    ContainerKind kind =
        ContainerKind.valueOf(
            System.getProperty("shop.container", "jetty")
                .trim()
                .toUpperCase(java.util.Locale.ROOT));
    return kind.start(Deployment.of(war).withPort(port));
  }
}
