package org.overloadcontrol.it.experiments.workloads;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.overloadcontrol.it.experiments.ServerJvm;
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

  private final ServerJvm jvm;
  private final Path out;
  private final String run;
  private final URI target;

  private ServerProcess(ServerJvm jvm, Path out, String run) throws IOException {
    this.jvm = jvm;
    this.out = out;
    this.run = run;
    this.target = URI.create(jvm.await("READY "));
  }

  /** Starts the server and returns once it reports that it serves. */
  static ServerProcess start(
      Workload workload, String guard, ContainerKind container, Path out, String run)
      throws IOException {
    Files.createDirectories(out);
    List<String> cmd = new ArrayList<>(CorePinning.serverPrefix());
    cmd.add(ServerJvm.java());
    cmd.add("-Xmx1g");
    cmd.add("-D" + WorkloadServer.WARM_UP + "=" + Integer.getInteger(WorkloadServer.WARM_UP, 0));
    cmd.add("-Djava.awt.headless=true");
    // The "tuned" guard reads its keys in the server's JVM.
    String tuned = System.getProperty(Guard.TUNED_PARAMS);
    if (tuned != null) {
      cmd.add("-D" + Guard.TUNED_PARAMS + "=" + tuned);
    }
    // -Dexperiment.serverJvmArgs (WorkloadMatrixExperiment): a profiler or a GC log per run.
    for (String a : System.getProperty("experiment.serverJvmArgs", "").trim().split("\\s+")) {
      if (!a.isEmpty()) {
        cmd.add(a.replace("{run}", run));
      }
    }
    // What Tomcat's start script opens, as the failsafe fork has.
    cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    cmd.add("--add-opens=java.base/java.io=ALL-UNNAMED");
    cmd.add("--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED");
    cmd.add("-cp");
    cmd.add(ServerJvm.testClassPath());
    cmd.add(WorkloadServer.class.getName());
    cmd.add(workload.key());
    cmd.add(guard);
    cmd.add(container.name().toLowerCase(Locale.ROOT));
    cmd.add(out.toAbsolutePath().toString());
    cmd.add(run);
    ServerJvm jvm =
        ServerJvm.start(
            cmd, out.resolve(run + "-server.err"), "workload server", START_TIMEOUT_SECONDS);
    try {
      return new ServerProcess(jvm, out, run);
    } catch (IOException | RuntimeException e) {
      jvm.close();
      throw e;
    }
  }

  /** The endpoint's URL. */
  URI target() {
    return target;
  }

  /** Stalls every request for {@code millis} from now. */
  void stall(long millis) throws IOException {
    jvm.send("stall " + millis);
  }

  /** Stops the server; returns its request log and its limit samples ({nanos, limit}). */
  Logs stop() throws IOException {
    jvm.send("stop");
    jvm.await("DONE");
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

  @Override
  public void close() {
    jvm.close();
  }
}
