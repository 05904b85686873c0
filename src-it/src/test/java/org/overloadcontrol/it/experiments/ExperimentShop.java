package org.overloadcontrol.it.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.it.load.ClosedLoopUsers;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.load.RunResult;
import org.overloadcontrol.it.load.SessionModel;
import org.overloadcontrol.it.load.ShopClient;
import org.overloadcontrol.it.load.ShopRequest;
import org.overloadcontrol.it.load.StepSchedule;
import org.overloadcontrol.it.load.UserBehaviour;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.SpringShopContainer;
import org.overloadcontrol.it.support.WebContainer;

/**
 * The real sample WAR in embedded Jetty 12 (or Tomcat, {@code -Dshop.container=tomcat}), or
 * the same shop in its Spring Boot form ({@code -Dexperiment.shop=spring}), for one experiment
 * run, with the shop's settings
 * ({@code shop.timeScale}, {@code shop.dbConnections}) and an operator overload YAML
 * ({@code -Doverload.configFile}) set as system properties for the start, plus a load client
 * and the engine gauge.
 */
final class ExperimentShop implements AutoCloseable {

  /**
   * Switches off what the shop adds that a shop experiment does not measure: the virtual queue
   * on {@code /confirm} and the degradation of {@code /search} (its database time does not
   * depend on its quality).
   */
  static final String NO_VIRTUAL_QUEUE =
      "virtualQueue: {enabled: false}\n" + "degrade: {endpoints: {search: {enabled: false}}}\n";

  /**
   * Admission control alone: the shop's wait queues (6 permits) get more permits than the
   * container has threads, so no request ever waits in them; no virtual queue.
   */
  static final String ADMISSION_ONLY = "queue: {permits: 1000}\n" + NO_VIRTUAL_QUEUE;

  /**
   * The admission controller's settings for a run at {@code timeScale}: initial rate 20/s per
   * endpoint, bucket depth 10, and the round timeout (1 s published) scaled with the service
   * times, so the controller reacts as often per request as it would at time scale 1.
   */
  static String controller(double timeScale) {
    return "controller: {initialRate: 20, bucketDepth: 10, timeout: "
        + Math.max(1, Math.round(1000 * timeScale))
        + "ms}\n";
  }

  /** Where every experiment writes its report. */
  static final Path OUT = Path.of("target", "experiments");

  private static final String[] PROPERTIES = {
    "shop.timeScale", "shop.dbConnections", "shop.dbWait", "overload.configFile"
  };

  final WebContainer container;
  final ShopClient client;
  final EngineGauge gauge;
  final double timeScale;
  final int dbConnections;

  private ExperimentShop(
      WebContainer container, ShopClient client, double timeScale, int dbConnections) {
    this.container = container;
    this.client = client;
    this.gauge = new EngineGauge(container.servletContext());
    this.timeScale = timeScale;
    this.dbConnections = dbConnections;
  }

  /**
   * Starts the shop with {@code overloadYaml} layered over its own {@code overload.yaml}
   * ({@code enabled: false} turns the filter off).
   */
  static ExperimentShop start(
      String name, double timeScale, int dbConnections, String overloadYaml, int maxConnections)
      throws Exception {
    return start(name, timeScale, dbConnections, overloadYaml, maxConnections, ContainerHooks.NONE);
  }

  /**
   * Starts the shop as {@link #start(String, double, int, String, int)} does, with
   * {@code hooks} around it (a server-side request log, a peer guard); a null
   * {@code overloadYaml} leaves the shop's own configuration alone.
   */
  static ExperimentShop start(
      String name,
      double timeScale,
      int dbConnections,
      String overloadYaml,
      int maxConnections,
      ContainerHooks hooks)
      throws Exception {
    Path war =
        Path.of(System.getProperty("sample.war", "../sample-webapp/target/sample-webapp.war"));
    if (form().equals("war") && !Files.isRegularFile(war)) {
      throw new IllegalStateException("build the sample WAR first: " + war.toAbsolutePath());
    }
    if (overloadYaml != null) {
      Path yaml = OUT.resolve("config").resolve(name + ".yaml");
      Files.createDirectories(yaml.getParent());
      Files.writeString(yaml, overloadYaml);
      System.setProperty("overload.configFile", yaml.toAbsolutePath().toString());
    }
    System.setProperty("shop.timeScale", Double.toString(timeScale));
    System.setProperty("shop.dbConnections", Integer.toString(dbConnections));
    System.setProperty("shop.dbWait", "60s");
    WebContainer container;
    try {
      container =
          form().equals("spring")
              ? SpringShopContainer.start("/shop", 0, Deployment.DEFAULT_MAX_THREADS, hooks)
              : container().start(Deployment.of(war).withContextPath("/shop").withHooks(hooks));
    } finally {
      for (String p : PROPERTIES) {
        System.clearProperty(p);
      }
    }
    try {
      return new ExperimentShop(
          container, new ShopClient(container.baseUri(), maxConnections), timeScale, dbConnections);
    } catch (Exception e) {
      container.close();
      throw e;
    }
  }

  /**
   * {@code -Dexperiment.shop}: {@code war} (the default: the sample WAR) or {@code spring} (the
   * same shop as a Spring Boot application on its embedded Tomcat, {@link SpringShopContainer}).
   */
  static String form() {
    String form = System.getProperty("experiment.shop", "war").trim();
    if (!form.isEmpty() && !form.equals("war") && !form.equals("spring")) {
      throw new IllegalArgumentException("experiment.shop: 'war' or 'spring', was '" + form + "'");
    }
    return form.isEmpty() ? "war" : form;
  }

  /** {@code -Dshop.container}: the WAR's container, {@code jetty} (default) or {@code tomcat}. */
  static ContainerKind container() {
    return ContainerKind.valueOf(
        System.getProperty("shop.container", "jetty").trim().toUpperCase(java.util.Locale.ROOT));
  }

  /** Which shop ran where, for the reports. */
  static String describe() {
    return form().equals("spring")
        ? "Spring Boot shop (sample-spring-boot) on embedded Tomcat"
        : "sample WAR in embedded "
            + (container() == ContainerKind.JETTY ? "Jetty 12" : "Tomcat 10.1");
  }

  /** Pages per second the shop can serve with the session mix (database time bound). */
  static double capacity(SessionModel model, double timeScale, int dbConnections) {
    return dbConnections / (model.meanServiceMillisPerRequest() * timeScale / 1000.0);
  }

  /**
   * Measures the pages per second this shop serves with {@code model}'s mix: eight
   * closed-loop users without think time for {@code seconds}, the first third left out.
   */
  double measureCapacity(SessionModel model, int seconds) throws InterruptedException {
    UserBehaviour patient =
        new UserBehaviour(
            Duration.ofSeconds(60), Duration.ZERO, 0, 0, Duration.ZERO, Duration.ZERO);
    RunResult r =
        new ClosedLoopUsers(client, model, patient, gauge)
            .run(
                List.of(
                    new ClosedLoopUsers.Group("calibration", StepSchedule.constant(8), Map.of())),
                Duration.ofSeconds(seconds),
                Duration.ofSeconds(1),
                1L);
    double from = seconds / 3.0;
    long done =
        r.seriesFrom(from).stream()
            .filter(p -> p.seconds() <= seconds)
            .mapToLong(RunResult.SeriesPoint::completed)
            .sum();
    return done / (seconds - from);
  }

  /**
   * The endpoints' p90 targets as YAML: the shop's browsing pages get {@code browsing}, its
   * transaction pages {@code transaction} ({@code none} for no admission control).
   */
  static String targets(String browsing, String transaction) {
    StringBuilder y = new StringBuilder("endpoints:\n");
    for (ShopRequest r : ShopRequest.PAGES) {
      y.append("  ")
          .append(r.endpoint())
          .append(": {target: ")
          .append(r.browsing() ? browsing : transaction)
          .append("}\n");
    }
    return y.toString();
  }

  static int seconds(String property, int defaultSeconds) {
    return Integer.getInteger(property, defaultSeconds);
  }

  /** The machine's one-minute load average, to say under what load a number was taken. */
  static String load() {
    return String.format(
        java.util.Locale.ROOT,
        "%.2f",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  static Map<String, String> none() {
    return Map.of();
  }

  @Override
  public void close() {
    client.close();
    container.close();
  }
}
