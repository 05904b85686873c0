package org.overloadcontrol.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The main job: deploys the built sample-shop WAR, with the overload filter in its web.xml,
 * into an embedded Jetty 12 on 127.0.0.1 and serves it until the process is stopped (Ctrl-C).
 *
 * <pre>
 *   mvn -Pshop -DskipTests verify                 # from the project root
 *   mvn -Pshop -DskipTests verify -Dshop.port=9090
 * </pre>
 *
 * <p>Arguments: the WAR file (default {@code sample-webapp/target/sample-webapp.war}).
 * System properties: {@code shop.port} (default 8080), {@code shop.container} ({@code jetty}
 * or {@code tomcat}, default jetty), and the shop's own settings ({@code shop.timeScale},
 * {@code shop.dbConnections}, {@code shop.dbWait}), which the shop reads itself.
 */
public final class ShopLauncher {

  private ShopLauncher() {}

  public static void main(String[] args) throws Exception {
    Path war = Path.of(args.length > 0 ? args[0] : "sample-webapp/target/sample-webapp.war");
    if (!Files.isRegularFile(war)) {
      System.err.println("No sample WAR at " + war.toAbsolutePath()
          + ": build it first (mvn -DskipTests package), or pass its path.");
      System.exit(2);
    }
    int port = Integer.parseInt(System.getProperty("shop.port", "8080").trim());
    ContainerKind kind = ContainerKind.valueOf(
        System.getProperty("shop.container", "jetty").trim().toUpperCase(java.util.Locale.ROOT));
    WebContainer shop = kind.start(Deployment.of(war).withPort(port));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      shop.close();
      stopped.countDown();
    }, "shop-shutdown"));
    System.out.println();
    System.out.println("  The sample shop runs at " + shop.baseUri() + "  (" + shop + ")");
    System.out.println("  Press Ctrl-C to stop.");
    System.out.println();
    stopped.await();
  }
}
