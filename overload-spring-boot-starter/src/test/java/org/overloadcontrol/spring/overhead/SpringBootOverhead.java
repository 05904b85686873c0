package org.overloadcontrol.spring.overhead;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The end-to-end overhead of the starter: a trivial {@code @RestController} in Spring Boot on
 * embedded Tomcat, with the starter (its filter, one endpoint per handler method) and without
 * it ({@code overload.spring.enabled=false}), loaded in turn by closed-loop clients over
 * HTTP on 127.0.0.1. Not a test and not in the default build; the commands are in
 * docs/frameworks.md (system properties {@code overhead.seconds}, {@code .rounds},
 * {@code .clients}). The clients share the host with the server, so the figure is the ratio of
 * the two variants measured in alternating rounds, not an absolute throughput. It stands in for
 * the {@code wrk}-driven EndToEndOverhead of the benchmarks module, which needs {@code wrk}.
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
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      for (ConfigurableApplicationContext app : apps.values()) {
        // Warm-up: the JIT and both servers' pools, twice each, so later rounds compare code
        // that has settled (a 2 s warm-up left the rate climbing threefold over the rounds).
        load(pool, clients, port(app), seconds);
      }
      for (ConfigurableApplicationContext app : apps.values()) {
        load(pool, clients, port(app), seconds);
      }
      List<String> order = new ArrayList<>(apps.keySet());
      Random random = new Random(1);
      for (int round = 0; round < rounds; round++) {
        Collections.shuffle(order, random);
        for (String name : order) {
          double rate = load(pool, clients, port(apps.get(name)), seconds);
          rates.computeIfAbsent(name, k -> new ArrayList<>()).add(rate);
          System.out.printf("round %d  %-20s %8.0f requests/s%n", round + 1, name, rate);
        }
      }
    } finally {
      pool.shutdownNow();
      apps.values().forEach(ConfigurableApplicationContext::close);
    }
    double without = median(rates.get("without the starter"));
    double with = median(rates.get("with the starter"));
    System.out.printf("median: without %.0f/s, with %.0f/s, with/without %.1f %%%n", without,
        with, 100 * with / without);
  }

  private static ConfigurableApplicationContext start(String enabled) {
    return new SpringApplicationBuilder(Hello.class)
        .properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
            "logging.level.root=warn", enabled)
        .run();
  }

  private static int port(ConfigurableApplicationContext app) {
    return ((ServletWebServerApplicationContext) app).getWebServer().getPort();
  }

  /** Closed-loop load for {@code seconds}: completed requests per second. */
  private static double load(ExecutorService pool, int clients, int port, int seconds)
      throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/hello")).build();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Future<Long>> done = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      done.add(pool.submit(() -> {
        long ok = 0;
        while (System.nanoTime() < end) {
          if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            ok++;
          }
        }
        return ok;
      }));
    }
    long total = 0;
    for (Future<Long> f : done) {
      total += f.get();
    }
    return total / (double) seconds;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
