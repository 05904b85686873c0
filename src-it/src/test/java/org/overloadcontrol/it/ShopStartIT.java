package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * Issue 18's first screen: the main job ({@link ShopLauncher}, what {@code mvn -Pshop
 * -DskipTests verify} runs) started as its own process, in Jetty and in Tomcat, prints no error
 * before it says where the shop runs: no {@code SLF4J(E)} line (two copies of the SLF4J API on
 * different class loaders), no line at ERROR or SEVERE level, no warning of the filter's, and
 * no "NO KEY CONFIGURED" banner of the virtual queue (the shop ships a development key). Its own JVM, so that nothing the
 * other tests did to logging in this one hides or adds a line.
 */
class ShopStartIT {

  private static final Pattern RUNS_AT =
      Pattern.compile("The sample shop runs at (http://127\\.0\\.0\\.1:\\d+/)");

  /** The dashboard's address, printed on the line after the shop's. */
  private static final Pattern DASHBOARD_AT =
      Pattern.compile("Its dashboard is at +(http://127\\.0\\.0\\.1:\\d+/overload/)");

  /**
   * What a newcomer must not meet at start: errors, SLF4J's own complaints, the key banner, and
   * warnings of ours. (Not every container warning: Tomcat warns, for example, when the
   * SecureRandom for session ids is slow to create on a busy machine.)
   */
  private static final Pattern ALARMING =
      Pattern.compile(
          "SLF4J\\([EW]\\)|\\bERROR\\b"
              + "|\\bSEVERE\\b|NO KEY CONFIGURED|\\bWARN(ING)?\\b[: ].*overload");

  private static final Duration START_LIMIT = Duration.ofSeconds(120);

  private static Path war;

  @BeforeAll
  static void findWar() {
    String path = System.getProperty("sample.war");
    Assumptions.assumeTrue(
        path != null && Files.isRegularFile(Path.of(path)),
        "sample WAR absent (" + path + "): build it first; the shop start test is skipped");
    war = Path.of(path);
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theShopStartsWithoutAnErrorLineOrTheKeyBanner(ContainerKind kind) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                // What Tomcat's start script opens (as the failsafe configuration does).
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dshop.port=0",
                "-Dshop.container=" + kind.name().toLowerCase(Locale.ROOT),
                ShopLauncher.class.getName(),
                war.toAbsolutePath().toString()));
    Process shop = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    CompletableFuture<String> started = new CompletableFuture<>();
    Thread reader = new Thread(() -> read(shop, lines, started), "shop-output");
    reader.setDaemon(true);
    reader.start();
    try {
      String base = started.get(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
      List<String> atStart;
      synchronized (lines) {
        atStart = List.copyOf(lines);
      }
      System.out.printf(
          "[%s] the shop's output up to its start:%n  %s%n", kind, String.join("\n  ", atStart));
      assertThat(atStart)
          .as("the shop's output at start (%s)", kind)
          .noneMatch(line -> ALARMING.matcher(line).find());
      HttpResponse<String> home =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(base)).timeout(Duration.ofSeconds(30)).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(home.statusCode()).as("the home page at %s", base).isEqualTo(200);
      String dashboard = dashboardLine(lines, base);
      HttpResponse<String> page =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(dashboard))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).as("the dashboard at %s", dashboard).isEqualTo(200);
    } finally {
      shop.destroy();
      if (!shop.waitFor(30, TimeUnit.SECONDS)) {
        shop.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** The dashboard's address the shop printed right after its own, on the shop's port. */
  private static String dashboardLine(List<String> lines, String base) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      synchronized (lines) {
        for (String line : lines) {
          Matcher m = DASHBOARD_AT.matcher(line);
          if (m.find()) {
            assertThat(m.group(1)).as("the dashboard's address").isEqualTo(base + "overload/");
            return m.group(1);
          }
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no line 'Its dashboard is at ...' after the shop's address");
  }

  private static void read(Process shop, List<String> lines, CompletableFuture<String> started) {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(shop.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        synchronized (lines) {
          lines.add(line); // after the start too: the dashboard's line follows the shop's
        }
        Matcher m = RUNS_AT.matcher(line);
        if (m.find()) {
          started.complete(m.group(1));
        }
      }
      synchronized (lines) {
        started.completeExceptionally(
            new AssertionError(
                "the shop exited with "
                    + shop.waitFor()
                    + " before it started:\n"
                    + String.join("\n", lines)));
      }
    } catch (IOException | InterruptedException e) {
      started.completeExceptionally(e);
    }
  }
}
