package org.overloadcontrol.it.experiments;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server an experiment starts in a JVM of its own (a cold start must be one), spoken to in
 * lines: the server says where it stands on its standard output ({@code READY <url>}, {@code
 * DONE}), the experiment sends it commands on its standard input ({@code stop}); its standard
 * error goes to a file the failures name. The workload matrix's and the Spring Boot cold start's
 * servers both run this way.
 */
public final class ServerJvm implements AutoCloseable {

  private final Process process;
  private final BufferedReader stdout;
  private final Writer stdin;
  private final Path errors;
  private final String what;
  private final long timeoutNanos;

  private ServerJvm(Process process, Path errors, String what, long timeoutSeconds) {
    this.process = process;
    this.errors = errors;
    this.what = what;
    this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    this.stdout =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /** The {@code java} of the JVM running the experiment. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The experiment's own test class path, which the server runs with. */
  public static String testClassPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  /**
   * Starts {@code command}, its standard error into {@code errors}.
   *
   * @param what the server, as a failure names it
   * @param timeoutSeconds how long {@link #await} waits for a line
   */
  public static ServerJvm start(List<String> command, Path errors, String what, long timeoutSeconds)
      throws IOException {
    Process p = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    return new ServerJvm(p, errors, what, timeoutSeconds);
  }

  /** The rest of the first line that begins with {@code prefix}, trimmed. */
  public String await(String prefix) throws IOException {
    long deadline = System.nanoTime() + timeoutNanos;
    String line;
    while ((line = stdout.readLine()) != null) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).trim();
      }
      if (System.nanoTime() > deadline) {
        break;
      }
    }
    throw new IOException("the " + what + " did not say '" + prefix.trim() + "'; see " + errors);
  }

  /** Sends the server one command line. */
  public void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
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
