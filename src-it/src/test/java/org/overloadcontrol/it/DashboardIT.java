package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.LoadPlan;
import org.overloadcontrol.it.support.LoadSummary;
import org.overloadcontrol.it.support.OpenLoopDriver;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Issue 8's browser test: the built sample shop in embedded Jetty, under a load spike on its
 * search page, with its dashboard ({@code /overload/}) open in real headless Chromium driven by
 * Selenium. Checks that a chart per endpoint renders, that the charts keep updating (more points,
 * different pixels), and that the searched endpoint is shown shedding during the spike, its
 * card first (the worst state before the rest) and its state counted in the header. Saves
 * a screenshot taken at the height of the spike as {@code target/dashboard.png}, and also where
 * the system property {@code dashboard.screenshot} says (how {@code docs/dashboard.png} is made).
 *
 * <p>Uses the installed browser and driver (Debian's {@code chromium} and
 * {@code chromium-driver}; override with {@code -Dchromium.binary} and
 * {@code -Dchromedriver.path}); never downloads either. Skipped, with a message saying what to
 * install, where they are missing, and when the sample WAR has not been built.
 */
class DashboardIT {

  private static final String[] FLAGS = {
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1400,1900"
  };

  private static Path war;
  private static Path chromium;
  private static Path chromedriver;
  private static String savedConfigFile;

  @BeforeAll
  static void findWarAndBrowser() throws Exception {
    String path = System.getProperty("sample.war");
    Assumptions.assumeTrue(
        path != null && Files.isRegularFile(Path.of(path)),
        "sample WAR absent (" + path + "): build it first; the dashboard test is skipped");
    war = Path.of(path);
    chromium = Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
    chromedriver = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));
    Assumptions.assumeTrue(
        Files.isExecutable(chromium) && Files.isExecutable(chromedriver),
        "no Chromium installed ("
            + chromium
            + ", "
            + chromedriver
            + "): install Debian's"
            + " chromium and chromium-driver (apt-get install chromium chromium-driver) to run"
            + " the dashboard browser test; skipped");
    // Wait queues in front of the shop's four database connections, so the dashboard shows
    // them too: an operator's YAML layered over the shop's own (overload.configFile). Search
    // gets a target under its own service time (about 0.3 s), so that the spike makes it shed
    // early and for the whole spike.
    Path yaml = Files.createTempFile("dashboard-it-", ".yaml");
    Files.writeString(
        yaml,
        "queue:\n  permits: 4\n  maxWait: 4s\n" + "endpoints:\n  search:\n    target: 200ms\n");
    yaml.toFile().deleteOnExit();
    savedConfigFile = System.setProperty("overload.configFile", yaml.toString());
  }

  @AfterAll
  static void restore() {
    if (war == null || chromium == null) {
      return;
    }
    if (savedConfigFile == null) {
      System.clearProperty("overload.configFile");
    } else {
      System.setProperty("overload.configFile", savedConfigFile);
    }
  }

  private static ChromeDriver browser() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(FLAGS);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }

  /** Sends image requests from groups a, b, c and d in turn, a few a second, for a while. */
  private static Void images(URI image, Duration duration) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    long end = System.nanoTime() + duration.toNanos();
    for (int i = 0; System.nanoTime() < end; i++) {
      http.send(
          java.net.http.HttpRequest.newBuilder(image)
              .header("X-Client-Group", String.valueOf((char) ('a' + i % 4)))
              .timeout(Duration.ofSeconds(10))
              .build(),
          java.net.http.HttpResponse.BodyHandlers.discarding());
      Thread.sleep(100); // paced: the point is a live panel, not a bandwidth experiment
    }
    return null;
  }

  private static long number(ChromeDriver driver, String script) {
    Object v = ((JavascriptExecutor) driver).executeScript("return " + script);
    return v == null ? -1 : ((Number) v).longValue();
  }

  private static String pixels(ChromeDriver driver, WebElement canvas) {
    return (String)
        ((JavascriptExecutor) driver)
            .executeScript("return arguments[0].toDataURL('image/png');", canvas);
  }

  @Test
  void chartsRenderAndUpdateUnderALoadSpike() throws Exception {
    try (WebContainer shop = ContainerKind.JETTY.start(Deployment.of(war));
        OpenLoopDriver load = new OpenLoopDriver(256)) {
      URI base = shop.baseUri();
      ExecutorService loaders = Executors.newFixedThreadPool(4);
      ChromeDriver driver = browser();
      try {
        driver.get(base.resolve("overload/").toString());
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        // Steady browsing, and a search spike well past what four connections can serve.
        List<Future<LoadSummary>> runs = new ArrayList<>();
        runs.add(
            loaders.submit(
                () -> load.run(LoadPlan.of(base.resolve("./"), 4, Duration.ofSeconds(22)))));
        runs.add(
            loaders.submit(
                () ->
                    load.run(
                        LoadPlan.of(base.resolve("product?id=3"), 3, Duration.ofSeconds(22)))));
        runs.add(
            loaders.submit(
                () -> {
                  Thread.sleep(4_000); // calm first, then the spike
                  return load.run(
                      LoadPlan.of(base.resolve("search?q=tent"), 60, Duration.ofSeconds(12)));
                }));
        // Product images from the four client groups the shop gives bandwidth shares, in turn.
        loaders.submit(() -> images(base.resolve("images/1.jpg"), Duration.ofSeconds(22)));

        wait.until(
            d ->
                number(driver, "Number(document.body.dataset.updates)") >= 3
                    && d.findElements(By.cssSelector("section.card[data-endpoint]")).size() >= 2);
        assertThat(driver.findElement(By.id("queues")).isDisplayed()).isTrue();
        // The shop configures four bandwidth groups and a virtual queue: a panel for each.
        assertThat(driver.findElement(By.id("bandwidth")).isDisplayed()).isTrue();
        assertThat(driver.findElements(By.cssSelector("#bandwidth-groups tr[data-group]")))
            .hasSize(4);
        wait.until(
            d ->
                d.findElements(By.cssSelector("#bandwidth-groups tr[data-group]")).stream()
                    .allMatch(
                        tr ->
                            !tr.findElements(By.tagName("td"))
                                .get(4)
                                .getText()
                                .equals("0"))); // every group's admitted count moved
        assertThat(driver.findElement(By.id("virtual-queue")).isDisplayed()).isTrue();
        assertThat(driver.findElement(By.id("virtual-queue-row")).getText()).contains("10.0 /s");

        // The spike makes search shed; the cards come worst state first (0 shedding, 1 degraded,
        // 2 limiting, 3 healthy), read in one script so that the order is one poll's.
        List<?> order =
            wait.withTimeout(Duration.ofSeconds(25))
                .until(
                    d -> {
                      List<?> cards =
                          (List<?>)
                              ((JavascriptExecutor) d)
                                  .executeScript(
                                      "return Array.from("
                                          + "document.querySelectorAll('section.card[data-endpoint]'))"
                                          + ".map(c => c.dataset.endpoint + ':' + c.dataset.trouble)");
                      return cards.contains("search:0") ? cards : null;
                    });
        System.out.println("[dashboard] cards in order (endpoint:trouble): " + order);
        assertThat(String.valueOf(order.get(0)))
            .as("the first card is shedding: %s", order)
            .endsWith(":0");
        assertThat(
                driver
                    .findElement(By.cssSelector("section.card[data-endpoint='search'] .badge"))
                    .getText())
            .as("the state badge reads the share refused")
            .matches("shedding \\d+(\\.\\d)? %");
        assertThat(driver.findElement(By.id("summary")).getText())
            .as("the header counts endpoints per state")
            .matches("\\d+ endpoints: .*\\d+ shedding.*");
        assertThat(order.stream().map(c -> String.valueOf(c).replaceAll(".*:", "")).toList())
            .as("troubled endpoints first: %s", order)
            .isSorted();
        Thread.sleep(6_000); // let the spike fill the charts
        List<WebElement> canvases = driver.findElements(By.cssSelector("canvas"));
        long endpoints = driver.findElements(By.cssSelector("section.card[data-endpoint]")).size();
        assertThat(canvases)
            .as("a queue chart and three charts per endpoint")
            .hasSize((int) (1 + 3 * endpoints));
        // Every chart of the loaded pages' endpoints (and the queues) has drawn data. (An endpoint
        // the load does not reach, e.g. the container's default servlet, may have no p90 yet.)
        Object empty =
            ((JavascriptExecutor) driver)
                .executeScript(
                    "return overloadDashboard"
                        + ".charts().filter(c => !c.data.datasets.some(ds => ds.data.some(v => v !== null)))"
                        + ".filter(c => ['queues', 'home', 'details', 'search'].includes("
                        + "c.canvas.closest('section').dataset.endpoint || c.canvas.closest('section').id))"
                        + ".map(c => c.canvas.closest('section').querySelector('h2').textContent + ': '"
                        + " + c.canvas.closest('figure').querySelector('figcaption').textContent)");
        assertThat((List<?>) empty).as("charts without data").isEmpty();
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", "dashboard.png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        String copy = System.getProperty("dashboard.screenshot");
        if (copy != null && !copy.isBlank()) {
          Files.copy(shot.toPath(), Path.of(copy), StandardCopyOption.REPLACE_EXISTING);
        }

        // The charts move: more points, and the search card's charts are redrawn.
        WebElement rateChart =
            driver
                .findElements(By.cssSelector("section.card[data-endpoint='search'] canvas"))
                .get(1);
        long points = number(driver, "overloadDashboard.pointCount()");
        long updates = number(driver, "overloadDashboard.updates()");
        String before = pixels(driver, rateChart);
        wait.until(d -> number(driver, "overloadDashboard.updates()") >= updates + 2);
        assertThat(number(driver, "overloadDashboard.pointCount()"))
            .isGreaterThanOrEqualTo(Math.min(120, points + 2));
        assertThat(pixels(driver, rateChart)).as("the rate chart was redrawn").isNotEqualTo(before);
        assertThat(driver.findElement(By.id("connection")).getText()).isEqualTo("live");

        for (Future<LoadSummary> run : runs) {
          LoadSummary summary = run.get();
          System.out.println("[dashboard] load: " + summary.format());
        }
        System.out.printf(
            "[dashboard] %d updates, %d endpoints, screenshot %s%n",
            number(driver, "overloadDashboard.updates()"), endpoints, target.toAbsolutePath());
      } finally {
        driver.quit();
        loaders.shutdownNow();
      }
    }
  }
}
