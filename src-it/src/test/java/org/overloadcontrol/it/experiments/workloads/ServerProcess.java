package org.overloadcontrol.it.experiments.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.it.serverlog.ServedRequest;
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * A {@link WorkloadServer} in a fresh JVM, started with this JVM's test class path: the
 * handle the experiment uses to wait for it to serve, stall it, and stop it and read back its
 * request log and its limit over time. Its standard error goes to {@code <run>-server.err}.
 */
final class ServerProcess implements AutoCloseable {

  private static final long START_TIMEOUT_SECONDS = 90;

  private final Process process;
  private final BufferedReader stdout;
  private final Writer stdin;
  private final Path out;
  private final String run;
  private final URI target;

  private ServerProcess(Process process, Path out, String run) throws IOException {
    this.process = process;
    this.out = out;
    this.run = run;
    this.stdout =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.target = URI.create(awaitLine("READY ").substring("READY ".length()).trim());
  }

  /** Starts the server and returns once it reports that it serves. */
  static ServerProcess start(
      Workload workload, String guard, ContainerKind container, Path out, String run)
      throws IOException {
    Files.createDirectories(out);
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(CorePinning.serverPrefix());
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    cmd.add("-D" + WorkloadServer.WARM_UP + "=" + Integer.getInteger(WorkloadServer.WARM_UP, 0));
    cmd.add("-Djava.awt.headless=true");
    // What Tomcat's start script opens, as the failsafe fork has.
    cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    cmd.add("--add-opens=java.base/java.io=ALL-UNNAMED");
    cmd.add("--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED");
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(WorkloadServer.class.getName());
    cmd.add(workload.key());
    cmd.add(guard);
    cmd.add(container.name().toLowerCase(java.util.Locale.ROOT));
    cmd.add(out.toAbsolutePath().toString());
    cmd.add(run);
    Process p =
        new ProcessBuilder(cmd).redirectError(out.resolve(run + "-server.err").toFile()).start();
    try {
      return new ServerProcess(p, out, run);
    } catch (IOException | RuntimeException e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** The endpoint's URL. */
  URI target() {
    return target;
  }

  /** Stalls every request for {@code millis} from now. */
  void stall(long millis) throws IOException {
    command("stall " + millis);
  }

  /** Stops the server; returns its request log and its limit samples ({nanos, limit}). */
  Logs stop() throws IOException {
    command("stop");
    awaitLine("DONE");
    List<ServedRequest> log =
        ServerRequestLog.readCsv(Files.readAllLines(out.resolve(run + "-server-log.csv")));
    List<double[]> limits = new ArrayList<>();
    List<String> lines = Files.readAllLines(out.resolve(run + "-limit.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      limits.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
    }
    return new Logs(log, limits);
  }

  /** What the server recorded. */
  record Logs(List<ServedRequest> requests, List<double[]> limits) {}

  private void command(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  private String awaitLine(String prefix) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    String line;
    while ((line = stdout.readLine()) != null) {
      if (line.startsWith(prefix)) {
        return line;
      }
      if (System.nanoTime() > deadline) {
        break;
      }
    }
    throw new IOException(
        "the workload server did not say '"
            + prefix.trim()
            + "'; see "
            + out.resolve(run + "-server.err"));
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
