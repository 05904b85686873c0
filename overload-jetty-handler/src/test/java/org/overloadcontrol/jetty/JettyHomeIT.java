package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Jetty module the way an operator uses it (docs/jetty-handler.md, "In a standalone
 * Jetty"): the build's {@code overload-jetty-handler-<version>-jetty-base.zip} unpacked into an
 * empty {@code JETTY_BASE}, {@code java -jar $JETTY_HOME/start.jar --add-modules=http,overload,jmx}
 * against a real Jetty 12 distribution ({@code jetty-home}, the build's Jetty version, unpacked
 * by the build), the YAML file edited, then {@code java -jar start.jar} in its own process.
 *
 * <p>Each Jetty listens on 127.0.0.1, port 0; the test reads the port Jetty bound from its log
 * rather than picking a "free" port first, which another process could take in between. Every
 * wait is a bounded poll, and every process the test starts is destroyed after the test.
 *
 * <p>Runs with failsafe ({@code mvn -pl overload-jetty-handler -am verify}), which passes the
 * distribution's directory and the zip as {@code it.jettyHome} and {@code it.jettyBaseZip}.
 */
class JettyHomeIT {

  private static final Duration START_LIMIT = Duration.ofSeconds(60);

  /** What Jetty logs once the server, its handlers and connectors have started. */
  private static final String SERVER_STARTED = "Started oejs.Server@";

  private static final Pattern BOUND_PORT =
      Pattern.compile("Started ServerConnector@\\S+\\{[^}]*\\}\\{127\\.0\\.0\\.1:(\\d+)\\}");

  /** Search and the default endpoint admit one request, then refuse for the next 10 s. */
  private static final String ONE_TOKEN_YAML =
      """
      admission:
        controller: rate     # the token bucket, whose refusals the test reads
      controller:
        initialRate: 0.1     # one token per 10 s: Retry-After 10
        bucketDepth: 1
        timeout: 1h          # no controller round may raise the rate during the test
      endpoints:
        search:
          target: 500ms
          paths: [/search/*]
        site:
          target: 1s
      classes:
        gold:
          rank: 10
          match:
            header: X-Tier=gold
      """;

  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private Path jettyHome;
  private Path base;

  @BeforeEach
  void unpackTheBase(@TempDir Path dir) throws Exception {
    jettyHome = Path.of(required("it.jettyHome"));
    assertThat(jettyHome.resolve("start.jar")).isRegularFile();
    Path zip = Path.of(required("it.jettyBaseZip"));
    assertThat(zip).isRegularFile();
    base = Files.createDirectories(dir.resolve("jetty-base"));
    unzip(zip, base);
    Run addModules = run(Duration.ofSeconds(60), "--add-modules=http,overload,jmx");
    assertThat(addModules.exitCode).as(addModules.output).isZero();
    assertThat(base.resolve("start.d/overload.ini")).isRegularFile();
    assertThat(base.resolve("start.d/http.ini")).isRegularFile();
  }

  @AfterEach
  void destroyJetty() throws InterruptedException {
    for (Process p : processes) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void theModuleStartsJettyWithTheHandlerConfiguredFromTheBasesYaml() throws Exception {
    Files.writeString(base.resolve("etc/overload.yaml"), ONE_TOKEN_YAML);
    // What an operator edits in the ini the module wrote.
    Files.writeString(
        base.resolve("start.d/overload.ini"),
        "jetty.overload.defaultEndpoint=site\n",
        StandardOpenOption.APPEND);
    Jetty jetty = startJetty();
    assertThat(jetty.log()).contains("overload-control: Jetty handler started");

    // The first request takes the bucket's one token and goes on to the server's handlers
    // (no context is deployed: Jetty's DefaultHandler answers 404).
    HttpResponse<String> first = jetty.get("/search/a", "Accept", "application/json");
    assertThat(first.statusCode()).isEqualTo(404);
    assertThat(first.headers().firstValue("Retry-After")).isEmpty();

    HttpResponse<String> refused = jetty.get("/search/b", "Accept", "application/json");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("10");
    assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(refused.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(refused.body())
        .contains(
            "\"status\":503",
            "\"instance\":\"/search/b\"",
            "\"endpoint\":\"search\"",
            "\"requestClass\":\"default\"",
            "\"reason\":\"admission-rate\"",
            "\"retryAfterSeconds\":10");

    // The class rule: gold has its own bucket at the endpoint, so its first request passes.
    assertThat(jetty.get("/search/c", "X-Tier", "gold").statusCode()).isEqualTo(404);
    HttpResponse<String> gold = jetty.get("/search/d", "X-Tier", "gold");
    assertThat(gold.statusCode()).isEqualTo(503);
    assertThat(gold.body()).contains("\"requestClass\":\"gold\"");

    // Unrouted paths go to the default endpoint named in start.d/overload.ini.
    assertThat(jetty.get("/home", "Accept", "application/json").statusCode()).isEqualTo(404);
    HttpResponse<String> site = jetty.get("/home", "Accept", "text/html");
    assertThat(site.statusCode()).isEqualTo(503);
    assertThat(site.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(site.body()).contains("We are very busy right now", "try again in 10 seconds");
    assertThat(jetty.get("/home", "Accept", "application/json").body())
        .contains("\"endpoint\":\"site\"");

    // The status handler the module inserts in front: what WAR users get from the servlet.
    HttpResponse<String> status = jetty.get("/overload/status", "Accept", "application/json");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).contains("\"name\":\"search\"", "\"name\":\"site\"");
    // The dashboard ships in lib/overload with the module.
    HttpResponse<String> page = jetty.get("/overload/", "Accept", "text/html");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(jetty.get("/overload/chart.umd.js", "Accept", "*/*").body()).contains("Chart");
  }

  @Test
  void aBadKeyInTheYamlStopsJettyAtStartNamingTheKey() throws Exception {
    Files.writeString(
        base.resolve("etc/overload.yaml"),
        "endpoints:\n  search:\n    target: 500ms\n    deadline: 2s\n");
    Run run = run(START_LIMIT, "jetty.http.host=127.0.0.1", "jetty.http.port=0");
    assertThat(run.exitCode).as(run.output).isNotZero();
    assertThat(run.output).doesNotContain(SERVER_STARTED);
    assertThat(run.output)
        .contains(
            "'endpoints.search.deadline' = '2s'",
            "unknown key",
            base.resolve("etc/overload.yaml").toString());
  }

  /** A Jetty process that has bound its connector. */
  private record Jetty(Process process, Path logFile, int port, HttpClient http) {

    String log() throws IOException {
      return Files.readString(logFile, StandardCharsets.UTF_8);
    }

    HttpResponse<String> get(String path, String header, String value) throws Exception {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .header(header, value)
              .timeout(Duration.ofSeconds(20))
              .GET()
              .build();
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
  }

  /** The outcome of a start.jar run that was expected to exit. */
  private record Run(int exitCode, String output) {}

  private Jetty startJetty() throws Exception {
    Path logFile = base.resolve("jetty.out");
    Process process = start(logFile, "jetty.http.host=127.0.0.1", "jetty.http.port=0");
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      String log = Files.readString(logFile, StandardCharsets.UTF_8);
      Matcher bound = BOUND_PORT.matcher(log);
      if (bound.find() && log.contains(SERVER_STARTED)) {
        return new Jetty(process, logFile, Integer.parseInt(bound.group(1)), http);
      }
      if (!process.isAlive()) {
        throw new AssertionError("Jetty exited with " + process.exitValue() + ":\n" + log);
      }
      process.waitFor(50, TimeUnit.MILLISECONDS);
    }
    throw new AssertionError(
        "Jetty did not start within "
            + START_LIMIT
            + ":\n"
            + Files.readString(logFile, StandardCharsets.UTF_8));
  }

  /**
   * Runs start.jar until it exits; fails at once if it starts a server instead (so a Jetty
   * that should have refused its configuration does not cost the whole limit).
   */
  private Run run(Duration limit, String... args) throws Exception {
    Path logFile = Files.createTempFile(base.getParent(), "start", ".out");
    Process process = start(logFile, args);
    long deadline = System.nanoTime() + limit.toNanos();
    while (!process.waitFor(50, TimeUnit.MILLISECONDS)) {
      String log = Files.readString(logFile, StandardCharsets.UTF_8);
      if (log.contains(SERVER_STARTED) || System.nanoTime() > deadline) {
        throw new AssertionError(
            "start.jar "
                + String.join(" ", args)
                + " still running ("
                + (log.contains(SERVER_STARTED) ? "Jetty started" : "after " + limit)
                + "):\n"
                + log);
      }
    }
    return new Run(process.exitValue(), Files.readString(logFile, StandardCharsets.UTF_8));
  }

  /** {@code java -jar $JETTY_HOME/start.jar args} in the base, as the docs' steps run it. */
  private Process start(Path logFile, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                java(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                jettyHome.resolve("start.jar").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(base.toFile())
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile());
    // The base is the working directory, as in the docs; an inherited JETTY_BASE would win.
    builder.environment().remove("JETTY_BASE");
    builder.environment().put("JETTY_HOME", jettyHome.toString());
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private static String java() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          "system property "
              + property
              + " is not set: run this"
              + " test with failsafe (mvn -pl overload-jetty-handler -am verify)");
    }
    return value;
  }

  private static void unzip(Path zip, Path into) throws IOException {
    try (InputStream in = Files.newInputStream(zip);
        ZipInputStream entries = new ZipInputStream(in)) {
      for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
        Path target = into.resolve(e.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("zip entry outside the base: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(entries, target);
        }
      }
    }
  }
}
