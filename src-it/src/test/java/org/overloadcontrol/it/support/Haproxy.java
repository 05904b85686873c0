package org.overloadcontrol.it.support;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy (Debian's package) in the foreground with a generated configuration: round robin over
 * the given nodes on 127.0.0.1, no stickiness, a TCP health check every 500 ms, and the name of
 * the node that answered in the {@value #SERVED_BY} response header. Tests that need a real load
 * balancer in front of several nodes start one; CI installs the package ({@code .ci/run}).
 */
public final class Haproxy implements AutoCloseable {

  /** The response header naming the node that answered: {@code node0}, {@code node1}, ... */
  public static final String SERVED_BY = "X-Served-By";

  private static final List<String> SBIN = List.of("/usr/sbin", "/usr/local/sbin", "/sbin");

  private final Process process;
  private final int port;

  private Haproxy(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * The installed {@code haproxy} binary: on the PATH or in an sbin directory (which a user's
   * PATH often lacks).
   *
   * @throws IllegalStateException saying how to install it when it is missing
   */
  public static Path binary() {
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(File.pathSeparator)));
    }
    dirs.addAll(SBIN);
    for (String dir : dirs) {
      Path p = Path.of(dir, "haproxy");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new IllegalStateException(
        "haproxy is not installed (looked on the PATH and in /usr/sbin): this test runs a real"
            + " load balancer in front of the nodes. Install Debian's package: apt-get install -y"
            + " haproxy (.ci/run does so in CI)");
  }

  /**
   * Starts HAProxy on {@code port} in front of {@code nodePorts} (all on 127.0.0.1) and waits
   * until it listens; its configuration and log are written to {@code dir}.
   */
  public static Haproxy start(Path dir, int port, List<Integer> nodePorts)
      throws IOException, InterruptedException {
    Path binary = binary();
    StringBuilder cfg =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                """
                global
                  maxconn 8192
                defaults
                  mode http
                  option http-server-close
                  option redispatch
                  retries 2
                  timeout connect 2s
                  timeout client 300s
                  timeout server 300s
                frontend nodes
                  bind 127.0.0.1:%d
                  default_backend nodes
                backend nodes
                  balance roundrobin
                  http-response set-header %s %%[srv_name]
                """,
                port,
                SERVED_BY));
    for (int n = 0; n < nodePorts.size(); n++) {
      cfg.append(
          String.format(
              Locale.ROOT,
              "  server node%d 127.0.0.1:%d check inter 500 fall 2 rise 2%n",
              n,
              nodePorts.get(n)));
    }
    Files.createDirectories(dir);
    Path file = dir.resolve("haproxy.cfg");
    Path log = dir.resolve("haproxy.log");
    Files.writeString(file, cfg);
    Process p =
        new ProcessBuilder(binary.toString(), "-db", "-f", file.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    for (int i = 0; i < 50 && p.isAlive(); i++) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        s.shutdownOutput(); // only to see that it listens
        return new Haproxy(p, port);
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    p.destroy();
    throw new IllegalStateException(
        "haproxy did not start: " + String.join("\n", Files.readAllLines(log)));
  }

  /** The port the balancer listens on. */
  public int port() {
    return port;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
