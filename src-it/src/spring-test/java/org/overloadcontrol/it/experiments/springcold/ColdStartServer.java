package org.overloadcontrol.it.experiments.springcold;

import jakarta.servlet.ServletContext;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.startup.Tomcat;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.it.serverlog.ServerRequestLog;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;

/**
 * One run's server, in a JVM of its own so that every run starts cold: starts
 * {@link ColdStartApplication} with the starter ({@code default}) or with it switched off
 * ({@code none}), prints {@code ARGS} and the arguments it gives Spring Boot, hangs the
 * experiments' server-side request log on its Tomcat, samples the starter's concurrency limit
 * every 100 ms, prints {@code READY <url>} once Spring Boot has started, and on {@code stop}
 * from its standard input writes {@code <run>-server-log.csv} and {@code <run>-limit.csv} into
 * the output directory, prints {@code DONE} and exits. Times are {@link System#nanoTime()}, one
 * monotonic clock for every JVM on the machine.
 *
 * <p>Arguments: variant ({@code default} or {@code none}), output directory, run name.
 */
public final class ColdStartServer {

  private static final long SAMPLE_MILLIS = 100;

  private ColdStartServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "arguments: variant outDir runName, were " + List.of(args));
    }
    String variant = args[0];
    Path out = Path.of(args[1]);
    String run = args[2];
    String[] springArguments = springArguments(variant);
    System.out.println("ARGS " + String.join(" ", springArguments));
    System.out.flush();
    ServletWebServerApplicationContext context =
        (ServletWebServerApplicationContext)
            SpringApplication.run(ColdStartApplication.class, springArguments);
    Tomcat tomcat = ((TomcatWebServer) context.getWebServer()).getTomcat();
    ServerRequestLog log = new ServerRequestLog();
    tomcat.getEngine().getPipeline().addValve(log.tomcat());
    ServletContext servletContext = context.getServletContext();
    ConcurrentLinkedQueue<String> limits = new ConcurrentLinkedQueue<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(
        () -> limits.add(sample(servletContext)), 0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    int port = tomcat.getConnector().getLocalPort();
    System.out.println("READY http://127.0.0.1:" + port + "/work");
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null && !line.trim().equals("stop")) {
      // Nothing else is asked of a cold-start server.
    }
    sampler.shutdownNow();
    ServerRequestLog.writeCsv(out.resolve(run + "-server-log.csv"), log.entries());
    Files.writeString(
        out.resolve(run + "-limit.csv"), "nanos,group,limit,in_flight\n" + String.join("", limits));
    context.close();
    System.out.println("DONE");
    System.out.flush();
    System.exit(0);
  }

  /**
   * The user's command line, plus what puts the server on loopback and an ephemeral port, and a
   * configuration name no file has: the class path also holds the sample shop's
   * {@code application.yaml}, whose {@code overload.*} settings the user's application has not.
   */
  static String[] springArguments(String variant) {
    List<String> a = new ArrayList<>();
    a.add("--server.address=127.0.0.1");
    a.add("--server.port=0");
    a.add("--spring.config.name=spring-cold-start");
    switch (variant) {
      case "default" -> {}
      case "none" -> a.add("--overload.spring.enabled=false");
      default ->
          throw new IllegalArgumentException("variant: 'default' or 'none', was '" + variant + "'");
    }
    return a.toArray(String[]::new);
  }

  /** One CSV line of the first concurrency group's limit, or none before the filter made one. */
  private static String sample(ServletContext context) {
    if (!(context.getAttribute(OverloadRuntime.ATTRIBUTE) instanceof OverloadRuntime r)) {
      return "";
    }
    List<ConcurrencyGroup> groups = r.engine().concurrencyGroups();
    if (groups.isEmpty()) {
      return "";
    }
    ConcurrencyGroup g = groups.get(0);
    return String.format(
        Locale.ROOT, "%d,%s,%d,%d%n", System.nanoTime(), g.name(), g.limit(), g.inFlight());
  }
}
