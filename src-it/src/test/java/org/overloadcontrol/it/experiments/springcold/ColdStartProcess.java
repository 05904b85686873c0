package org.overloadcontrol.it.experiments.springcold;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.it.experiments.ServerJvm;
import org.overloadcontrol.it.serverlog.ServedRequest;
import org.overloadcontrol.it.serverlog.ServerRequestLog;

/**
 * The handle on one run's server JVM ({@code ColdStartServer}, started by name: its Spring Boot
 * classes are compiled only with Spring on the class path): starts it with this JVM's test class
 * path and the JVM's own defaults, as a user's {@code java} command would, waits until Spring
 * Boot has started, and stops it and reads back its request log and its limit samples. Its
 * standard error (Spring Boot's log) goes to {@code <run>-server.err}.
 */
final class ColdStartProcess implements AutoCloseable {

  static final String SERVER = "org.overloadcontrol.it.experiments.springcold.ColdStartServer";

  private static final long START_TIMEOUT_SECONDS = 120;

  private final ServerJvm jvm;
  private final Path out;
  private final String run;
  private final List<String> command;
  private final long launchedNanos;
  private final long readyNanos;
  private final URI target;
  private final String springArguments;

  private ColdStartProcess(
      ServerJvm jvm, long launchedNanos, List<String> command, Path out, String run)
      throws IOException {
    this.launchedNanos = launchedNanos;
    this.jvm = jvm;
    this.command = command;
    this.out = out;
    this.run = run;
    this.springArguments = jvm.await("ARGS ");
    this.target = URI.create(jvm.await("READY "));
    this.readyNanos = System.nanoTime();
  }

  /** Fails with the command that puts Spring Boot on the class path when it is not there. */
  static void requireSpring() {
    try {
      Class.forName(SERVER);
      Class.forName("org.springframework.boot.SpringApplication");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "Spring Boot and this experiment's application are not on the class path: run it"
              + " with -Dexperiment.shop=spring, which compiles them and adds Spring Boot 4 and"
              + " the starter (src-it's spring-experiments profile)",
          e);
    }
  }

  /** Starts the server of {@code variant} and returns once it serves. */
  static ColdStartProcess start(String variant, Path out, String run) throws IOException {
    Files.createDirectories(out);
    List<String> cmd = new ArrayList<>();
    cmd.add(ServerJvm.java());
    cmd.add("-Djava.awt.headless=true");
    cmd.add("-cp");
    cmd.add(ServerJvm.testClassPath());
    cmd.add(SERVER);
    cmd.add(variant);
    cmd.add(out.toAbsolutePath().toString());
    cmd.add(run);
    long launched = System.nanoTime();
    ServerJvm jvm =
        ServerJvm.start(
            cmd, out.resolve(run + "-server.err"), "cold-start server", START_TIMEOUT_SECONDS);
    try {
      return new ColdStartProcess(jvm, launched, cmd, out, run);
    } catch (IOException | RuntimeException e) {
      jvm.close();
      throw e;
    }
  }

  /** The endpoint's URL. */
  URI target() {
    return target;
  }

  /** The arguments the server gave Spring Boot. */
  String springArguments() {
    return springArguments;
  }

  /** Seconds from the JVM's launch to Spring Boot's "Started". */
  double startSeconds() {
    return (readyNanos - launchedNanos) / 1e9;
  }

  /**
   * The server's class and arguments, with the output directory as the experiment names it
   * (relative to the module), so that the report shows no path of the machine it ran on.
   */
  List<String> command() {
    List<String> shown = new ArrayList<>(command.subList(command.indexOf(SERVER), command.size()));
    shown.replaceAll(a -> a.equals(out.toAbsolutePath().toString()) ? out.toString() : a);
    return shown;
  }

  /** Stops the server; returns its request log and its limit samples. */
  Logs stop() throws IOException {
    jvm.send("stop");
    jvm.await("DONE");
    List<ServedRequest> log =
        ServerRequestLog.readCsv(Files.readAllLines(out.resolve(run + "-server-log.csv")));
    List<LimitSample> limits = new ArrayList<>();
    List<String> lines = Files.readAllLines(out.resolve(run + "-limit.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      limits.add(
          new LimitSample(
              Long.parseLong(f[0]), f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3])));
    }
    return new Logs(log, limits);
  }

  /** The starter's first concurrency group at one moment ({@link System#nanoTime()}). */
  record LimitSample(long nanos, String group, int limit, int inFlight) {}

  /** What the server recorded. */
  record Logs(List<ServedRequest> requests, List<LimitSample> limits) {}

  @Override
  public void close() {
    jvm.close();
  }
}
