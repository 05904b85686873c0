package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.overloadcontrol.internal.virtualqueue.KeyRing;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FreePorts;
import org.overloadcontrol.it.support.Haproxy;
import org.overloadcontrol.it.support.LoopbackCluster;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Three Jetty nodes in cluster mode (an embedded Hazelcast member each, TCP/IP join on
 * loopback) behind a real HAProxy, round robin without stickiness (WebQ §III-B): the waiting
 * room is one, not three. Tokens are issued through the balancer and come back through it, so
 * they are checked wherever the balancer sends them; each passes exactly once, and its replays
 * are refused on every node, the issuing one included. Fails, and says how to install it, when
 * haproxy is missing: CI installs it.
 */
@Timeout(90)
class BalancedClusterIT {

  static final int NODES = 3;
  static final int CAPACITY = 2; // the cluster's, per second: a few requests fill a second
  static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
  static final Pattern REASON = Pattern.compile("\"reason\":\"([^\"]+)\"");

  @TempDir Path dir;

  record Issued(String token, String issuer, int waitSeconds, long issuedNanos) {}

  @Test
  void aTokenIssuedThroughTheBalancerPassesExactlyOnceOnWhicheverNodeItReaches() throws Exception {
    Haproxy.binary(); // fail first, with the install hint, before starting anything
    Path keys = dir.resolve("cluster.keys");
    Files.writeString(keys, KeyRing.newEntry("cluster", new SecureRandom()) + "\n");
    LoopbackCluster cluster = LoopbackCluster.of("balanced", NODES);
    int balancerPort = FreePorts.loopback(1)[0];
    List<WebContainer> nodes = new ArrayList<>();
    try {
      for (int n = 0; n < NODES; n++) {
        nodes.add(ContainerKind.JETTY.start(Deployment.of(webApp(n, keys, cluster))));
      }
      List<Integer> nodePorts = nodes.stream().map(WebContainer::port).toList();
      try (Haproxy balancer = Haproxy.start(dir.resolve("haproxy"), balancerPort, nodePorts)) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI work = URI.create("http://127.0.0.1:" + balancer.port() + "/work");
        List<Issued> issued = awaitTokens(http, work);
        assertThat(issued).as("tokens issued through the balancer").hasSizeGreaterThan(2);
        Map<String, String> passedOn = new LinkedHashMap<>();
        for (Issued t : issued.subList(0, 3)) {
          long due = t.issuedNanos() + t.waitSeconds() * 1_000_000_000L + 300_000_000L;
          long wait = due - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          }
          // As many uses as nodes: round robin sends them to every node in turn.
          List<String> outcomes = new ArrayList<>();
          for (int use = 0; use < NODES; use++) {
            HttpResponse<String> r = get(http, URI.create(work + "?oc_token=" + t.token()));
            String node = r.headers().firstValue(Haproxy.SERVED_BY).orElse("?");
            if ("early".equals(reason(r.body()))) {
              use--; // a second boundary crossed late on a loaded machine: not a use
              Thread.sleep(200);
            } else if (r.statusCode() == 200) {
              outcomes.add("passed on " + node);
              passedOn.put(t.token(), node);
            } else {
              outcomes.add(r.statusCode() + " " + reason(r.body()) + " on " + node);
            }
          }
          assertThat(outcomes)
              .as("uses of a token issued on %s", t.issuer())
              .filteredOn(o -> o.startsWith("passed"))
              .hasSize(1);
          assertThat(outcomes)
              .as("uses of a token issued on %s", t.issuer())
              .filteredOn(o -> o.contains("replayed"))
              .hasSize(NODES - 1);
        }
        // Round robin spreads the uses: at least one token passed on another node than the one
        // that issued it, so the check is the cluster's, not the issuing node's own.
        assertThat(issued.subList(0, 3))
            .as("tokens by issuer, passed on %s", passedOn)
            .anyMatch(t -> !t.issuer().equals(passedOn.get(t.token())));
      }
    } finally {
      nodes.forEach(WebContainer::close);
    }
  }

  /**
   * Asks until the cluster's schedule is full enough to hand out tokens: the first seconds
   * also wait for the members to find each other and the balancer's health checks to pass.
   */
  private static List<Issued> awaitTokens(HttpClient http, URI work) throws Exception {
    List<Issued> issued = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (issued.size() < 3 && System.nanoTime() < deadline) {
      long now = System.nanoTime();
      HttpResponse<String> r = get(http, work);
      Matcher token = TOKEN.matcher(r.body());
      if (r.statusCode() == 503 && token.find()) {
        int wait = Integer.parseInt(r.headers().firstValue("Retry-After").orElse("1").trim());
        String node = r.headers().firstValue(Haproxy.SERVED_BY).orElse("?");
        issued.add(new Issued(token.group(1), node, wait, now));
      } else if (r.statusCode() != 200) {
        Thread.sleep(100); // the balancer has no node up yet
      }
    }
    return issued;
  }

  private static HttpResponse<String> get(HttpClient http, URI uri)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String reason(String body) {
    Matcher m = REASON.matcher(body);
    return m.find() ? m.group(1) : body;
  }

  private Path webApp(int node, Path keys, LoopbackCluster cluster) throws IOException {
    Map<String, String> filter = new LinkedHashMap<>();
    filter.put("virtualQueue.enabled", "true");
    filter.put("virtualQueue.paths", "/work");
    filter.put("virtualQueue.capacity", Integer.toString(CAPACITY));
    filter.put("virtualQueue.maxWait", "60s");
    filter.put("virtualQueue.grace", "10s");
    filter.put("virtualQueue.keyFile", keys.toAbsolutePath().toString());
    filter.putAll(cluster.settings(node));
    filter.put("cluster.callTimeout", "500ms");
    return new ExplodedWebApp()
        .withOverloadFilter(filter)
        .withServlet("work", SleepServlet.class, Map.of("serviceTimeMillis", "1"), "/work")
        .writeUnder(dir, "node-" + node);
  }
}
