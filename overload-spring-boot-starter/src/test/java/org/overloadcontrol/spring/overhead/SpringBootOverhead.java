package org.overloadcontrol.spring.overhead;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The end-to-end overhead of the starter: a trivial {@code @RestController} in Spring Boot on
 * embedded Tomcat, with the starter (its filter, one endpoint per handler method) and without
 * it ({@code overload.spring.enabled=false}), loaded in turn by {@code wrk} (one thread,
 * {@code overhead.clients} connections, another process) over HTTP on 127.0.0.1. Per round and
 * variant it reports the requests per second and the server's CPU per request: this JVM's CPU
 * time over the requests served (the idle application costs next to nothing), the measure
 * another process on the host disturbs least, as in the benchmarks module's
 * {@code EndToEndOverhead}. Not a test and not in the default build; the commands are in
 * docs/frameworks.md (system properties {@code overhead.seconds}, {@code .rounds},
 * {@code .clients}).
 */
public final class SpringBootOverhead {

  /** The application under load. */
  @SpringBootApplication
  @RestController
  public static class Hello {
    @GetMapping("/hello")
    public String hello() {
      return "hi";
    }
  }

  private SpringBootOverhead() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("overhead.seconds", 5);
    int rounds = Integer.getInteger("overhead.rounds", 3);
    int clients = Integer.getInteger("overhead.clients", 8);
    Map<String, ConfigurableApplicationContext> apps = new LinkedHashMap<>();
    apps.put("without the starter", start("overload.spring.enabled=false"));
    apps.put("with the starter", start("overload.spring.enabled=true"));
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, List<Double>> cpu = new LinkedHashMap<>();
    try {
      for (int warm = 0; warm < 2; warm++) {
        // Warm-up: the JIT and both servers' pools, twice each, so later rounds compare code
        // that has settled (a 2 s warm-up left the rate climbing threefold over the rounds).
        for (ConfigurableApplicationContext app : apps.values()) {
          load(clients, port(app), seconds);
        }
      }
      List<String> order = new ArrayList<>(apps.keySet());
      Random random = new Random(1);
      for (int round = 0; round < rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          double[] r = load(clients, port(apps.get(name)), seconds);
          rates.computeIfAbsent(name, k -> new ArrayList<>()).add(r[0]);
          cpu.computeIfAbsent(name, k -> new ArrayList<>()).add(r[1]);
          System.out.printf(
              "round %d  %-20s %8.0f requests/s  %6.2f µs CPU/request%n",
              round + 1, name, r[0], r[1]);
        }
      }
    } finally {
      apps.values().forEach(ConfigurableApplicationContext::close);
    }
    double without = median(rates.get("without the starter"));
    double with = median(rates.get("with the starter"));
    double cpuWithout = median(cpu.get("without the starter"));
    double cpuWith = median(cpu.get("with the starter"));
    System.out.printf(
        "median: without %.0f/s %.2f µs CPU/request, with %.0f/s %.2f µs"
            + " CPU/request; with - without %+.2f µs (%+.1f %%), throughput with/without %.1f %%%n",
        without,
        cpuWithout,
        with,
        cpuWith,
        cpuWith - cpuWithout,
        100 * (cpuWith / cpuWithout - 1),
        100 * with / without);
  }

  private static ConfigurableApplicationContext start(String enabled) {
    return new SpringApplicationBuilder(Hello.class)
        .properties(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.main.banner-mode=off",
            "logging.level.root=warn",
            enabled)
        .run();
  }

  private static int port(ConfigurableApplicationContext app) {
    return ((ServletWebServerApplicationContext) app).getWebServer().getPort();
  }

  private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ");

  /**
   * {@code wrk} against the application for {@code seconds}: {requests per second, server CPU
   * microseconds per request}.
   */
  private static double[] load(int clients, int port, int seconds)
      throws IOException, InterruptedException {
    long cpuBefore = processCpuNanos();
    Process wrk =
        new ProcessBuilder(
                "wrk",
                "-t1",
                "-c" + clients,
                "-d" + seconds + "s",
                "http://127.0.0.1:" + port + "/hello")
            .redirectErrorStream(true)
            .start();
    String output;
    try (InputStream in = wrk.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (wrk.waitFor() != 0) {
      throw new IOException("wrk failed: " + output);
    }
    long cpuNanos = processCpuNanos() - cpuBefore;
    Matcher m = REQUESTS.matcher(output);
    if (!m.find() || output.contains("Non-2xx")) {
      throw new IOException("wrk: no count of requests, or refusals: " + output);
    }
    long requests = Long.parseLong(m.group(1));
    return new double[] {requests / (double) seconds, cpuNanos / 1e3 / requests};
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
