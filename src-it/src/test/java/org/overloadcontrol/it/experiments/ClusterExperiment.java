package org.overloadcontrol.it.experiments;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.virtualqueue.KeyRing;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FreePorts;
import org.overloadcontrol.it.support.Haproxy;
import org.overloadcontrol.it.support.LoopbackCluster;
import org.overloadcontrol.it.support.WebContainer;

/**
 * One waiting room on three nodes (WebQ §III-B): three embedded Jetty 12 servers on 127.0.0.1,
 * each with OverloadFilter in cluster mode (an embedded Hazelcast member per node, TCP/IP join
 * on loopback) in front of a page that works {@link #SERVICE_MILLIS} ms on one of
 * {@link #PERMITS} permits, behind HAProxy (Debian's package, started by the test with a
 * generated configuration: round robin, no stickiness, a TCP health check). A flash crowd of
 * users at 5× the configured cluster capacity for {@link #CROWD_SECONDS} s, then a trickle;
 * node 2 is stopped (cleanly) at {@link #STOP_AT_SECOND} s while its tokens are still out. Every
 * user follows the API protocol until served (wait Retry-After, retry with oc_token; the
 * balancer sends the retry wherever it likes); every tenth served user then replays its token
 * once. Measured: what reached the application per second against the cluster capacity, the
 * wait each user was promised against the wait it got, and the replays refused.
 *
 * <p>{@code -Dexperiment.app=shop} puts the sample WAR on each node instead (rebuilt with the
 * cluster module, {@link ClusteredShopWar}), cluster mode on through an operator file over the
 * shop's own settings, and its users post {@code /confirm}, the page the shop's waiting room
 * guards, at 5× its capacity of 10 a second.
 *
 * <p>Needs {@code haproxy} on the PATH ({@code apt-get install -y haproxy}).
 */
class ClusterExperiment {

  /**
   * What each node serves, {@code -Dexperiment.app}: the 50 ms page (the default) or the sample
   * shop, whose users post {@code /confirm}, the page its own waiting room guards.
   */
  enum App {
    /** The page of §9 on {@link #PERMITS} permits, 30 a second for the whole cluster. */
    PAGE("/work", "GET", 30, 10, 3, 40, 20),
    /**
     * The sample WAR with cluster mode on and its own {@code virtualQueue} settings (capacity
     * 10 a second on {@code /confirm}); a shorter crowd, as the room empties three times slower.
     */
    SHOP("/confirm", "POST", 10, 8, 1, 30, 15);

    final String path;
    final String method;
    final int capacity;
    final int crowdSeconds;
    final double lowRate;
    final int arrivalSeconds;
    final int stopAtSecond;

    App(
        String path,
        String method,
        int capacity,
        int crowdSeconds,
        double lowRate,
        int arrivalSeconds,
        int stopAtSecond) {
      this.path = path;
      this.method = method;
      this.capacity = capacity;
      this.crowdSeconds = crowdSeconds;
      this.lowRate = lowRate;
      this.arrivalSeconds = arrivalSeconds;
      this.stopAtSecond = stopAtSecond;
    }

    /**
     * Whether the application itself answered: the page's 200; the shop's 200 or its 409 (the
     * order refused because no checkout happened in this node's session: sessions are per node,
     * and the balancer has no stickiness), as opposed to the filter's 503.
     */
    boolean answered(int status) {
      return status == 200 || (this == SHOP && status == 409);
    }

    /** The prefix of this variant's report files. */
    String report() {
      return this == PAGE ? "cluster" : "cluster-shop";
    }

    static App of(String property) {
      return property == null || property.isBlank() || property.startsWith("${")
          ? PAGE
          : valueOf(property.trim().toUpperCase(Locale.ROOT));
    }
  }

  static final App APP = App.of(System.getProperty("experiment.app"));
  static final int NODES = 3;
  static final int PERMITS = VirtualQueueExperiment.PERMITS;
  static final int SERVICE_MILLIS = 50;

  /**
   * {@code virtualQueue.capacity} of the whole cluster: {@code -Dexperiment.capacity}, else the
   * variant's (the crowd stays at 5× it).
   */
  static final int CLUSTER_CAPACITY = capacity();

  static final double CROWD_RATE = 5.0 * CLUSTER_CAPACITY;
  static final int CROWD_SECONDS = APP.crowdSeconds;
  static final double LOW_RATE = APP.lowRate;
  static final int ARRIVAL_SECONDS = APP.arrivalSeconds;
  static final int STOP_AT_SECOND = APP.stopAtSecond;
  static final int STOPPED_NODE = 2;
  static final int DRAIN_SECONDS = 90;
  static final int MAX_SECONDS = ARRIVAL_SECONDS + DRAIN_SECONDS + 10;

  /** {@code cluster.callTimeout} of the nodes: {@code -Dexperiment.callTimeout}, default 50ms. */
  static final String CALL_TIMEOUT = callTimeout();

  private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
  private static final Pattern REASON = Pattern.compile("\"reason\":\"([^\"]+)\"");

  /** One user: arrives once, retries until served; every tenth replays its token once. */
  static final class User {
    final long arrivalOffsetNanos;
    final boolean replays;
    volatile long arrivalNanos;
    volatile int promisedSeconds = -1;
    volatile long servedNanos;
    volatile String lastToken;

    User(long arrivalOffsetNanos, boolean replays) {
      this.arrivalOffsetNanos = arrivalOffsetNanos;
      this.replays = replays;
    }
  }

  private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
  private final AtomicInteger replaysAdmitted = new AtomicInteger();
  private final AtomicInteger replaysRefused = new AtomicInteger();

  /** When each admitted replay was sent and its token's first use served, for the report. */
  private final Queue<String> admittedReplays = new ConcurrentLinkedQueue<>();

  private volatile long startNanos;

  /** Requests the shop answered itself, by the second they were sent (the shop has no meter). */
  private PerSecond answeredBySent;

  @Test
  void flashCrowdOnThreeNodesBehindHaproxy() throws Exception {
    Path out = ExperimentShop.OUT.resolve("apps");
    Files.createDirectories(out);
    Path keys = out.resolve("cluster.keys");
    Files.writeString(keys, KeyRing.newEntry("cluster", new SecureRandom()) + "\n");
    LoopbackCluster cluster = LoopbackCluster.of("experiment", NODES);
    int balancerPort = FreePorts.loopback(1)[0];
    List<WebContainer> nodes = new ArrayList<>();
    Haproxy haproxy = null;
    HttpClient client = VirtualQueueExperiment.client();
    ScheduledExecutorService timers =
        Executors.newScheduledThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "cluster-user-timers");
              t.setDaemon(true);
              return t;
            });
    try {
      Path shop =
          APP == App.SHOP
              ? ClusteredShopWar.write(
                  Path.of(
                      System.getProperty(
                          "sample.war", "../sample-webapp/target/sample-webapp.war")),
                  out.resolve("cluster-shop"))
              : null;
      for (int n = 0; n < NODES; n++) {
        nodes.add(
            APP == App.SHOP
                ? startShop(shop, out, n, cluster)
                : ContainerKind.JETTY.start(Deployment.of(webApp(out, n, keys, cluster))));
      }
      Thread.sleep(3000); // the members find each other, the exchange assembles the shares
      haproxy =
          Haproxy.start(
              out.resolve("haproxy"),
              balancerPort,
              nodes.stream().map(WebContainer::port).toList());
      URI work = URI.create("http://127.0.0.1:" + balancerPort + APP.path);
      List<User> users = users(new Random(22));
      long start = System.nanoTime() + (1000 - System.currentTimeMillis() % 1000) * 1_000_000L;
      startNanos = start;
      MeteredWorkServlet.reset(start, MAX_SECONDS);
      PerSecond arrivals = new PerSecond(start, MAX_SECONDS);
      answeredBySent = new PerSecond(start, MAX_SECONDS);
      String loadBefore = ExperimentShop.load();
      boolean stopped = false;
      for (User u : users) {
        long due = start + u.arrivalOffsetNanos;
        if (!stopped && System.nanoTime() >= start + STOP_AT_SECOND * 1_000_000_000L) {
          nodes.get(STOPPED_NODE).close();
          stopped = true;
        }
        long now = System.nanoTime();
        if (due > now) {
          LockSupport.parkNanos(due - now);
        }
        u.arrivalNanos = System.nanoTime();
        arrivals.add(u.arrivalNanos, 1);
        attempt(client, timers, work, u, null);
      }
      long deadline = System.nanoTime() + DRAIN_SECONDS * 1_000_000_000L;
      while (System.nanoTime() < deadline && users.stream().anyMatch(u -> u.servedNanos == 0)) {
        Thread.sleep(200);
      }
      Thread.sleep(2000); // the last replays
      report(users, arrivals, loadBefore, ExperimentShop.load());
    } finally {
      timers.shutdownNow();
      client.stop();
      if (haproxy != null) {
        haproxy.close();
      }
      nodes.forEach(WebContainer::close);
    }
  }

  private static Path webApp(Path out, int node, Path keys, LoopbackCluster cluster)
      throws IOException {
    Map<String, String> filter = VirtualQueueExperiment.permits();
    filter.put("virtualQueue.enabled", "true");
    filter.put("virtualQueue.paths", "/work");
    filter.put("virtualQueue.capacity", Integer.toString(CLUSTER_CAPACITY));
    filter.put("virtualQueue.maxWait", "5m");
    filter.put("virtualQueue.grace", "10s");
    filter.put("virtualQueue.keyFile", keys.toAbsolutePath().toString());
    filter.putAll(cluster.settings(node));
    filter.put("cluster.callTimeout", CALL_TIMEOUT);
    return new ExplodedWebApp()
        .withOverloadFilter(filter)
        .withServlet(
            "work",
            MeteredWorkServlet.class,
            Map.of("serviceTimeMillis", Integer.toString(SERVICE_MILLIS)),
            "/work")
        .writeUnder(out, "cluster-node-" + node);
  }

  /**
   * Node {@code node}: the shop in {@code war}, its own {@code overload.yaml} with this node's
   * {@code cluster.*} settings layered over it as the operator's file.
   */
  private static WebContainer startShop(Path war, Path out, int node, LoopbackCluster cluster)
      throws Exception {
    StringBuilder yaml = new StringBuilder("cluster:\n");
    Map<String, String> settings = new java.util.LinkedHashMap<>(cluster.settings(node));
    settings.put("cluster.callTimeout", CALL_TIMEOUT);
    settings.forEach(
        (k, v) ->
            yaml.append("  ")
                .append(k.substring("cluster.".length()))
                .append(": \"")
                .append(v)
                .append("\"\n"));
    yaml.append("virtualQueue:\n  capacity: ").append(CLUSTER_CAPACITY).append('\n');
    Path file = out.resolve("cluster-shop-node-" + node + ".yaml");
    Files.writeString(file, yaml);
    System.setProperty("overload.configFile", file.toAbsolutePath().toString());
    try {
      return ContainerKind.JETTY.start(Deployment.of(war));
    } finally {
      System.clearProperty("overload.configFile");
    }
  }

  private static int capacity() {
    String v = System.getProperty("experiment.capacity", "");
    return v.isBlank() || v.startsWith("${") ? APP.capacity : Integer.parseInt(v.trim());
  }

  private static String callTimeout() {
    String v = System.getProperty("experiment.callTimeout", "");
    return v.isBlank() || v.startsWith("${") ? "50ms" : v;
  }

  /** Poisson arrivals: the crowd, then the trickle; every tenth user will replay. */
  static List<User> users(Random random) {
    List<User> users = new ArrayList<>();
    double t = 0;
    while (true) {
      double rate = t < CROWD_SECONDS ? CROWD_RATE : LOW_RATE;
      double next = t - Math.log(1 - random.nextDouble()) / rate;
      if (t < CROWD_SECONDS && next >= CROWD_SECONDS) {
        t = CROWD_SECONDS;
        continue;
      }
      if (next >= ARRIVAL_SECONDS) {
        return users;
      }
      t = next;
      users.add(new User(Math.round(t * 1e9), users.size() % 10 == 9));
    }
  }

  private void attempt(
      HttpClient client, ScheduledExecutorService timers, URI work, User user, String token) {
    boolean replay = user.servedNanos != 0;
    URI target = token == null ? work : URI.create(work + "?oc_token=" + token);
    long sent = System.nanoTime();
    client
        .newRequest(target)
        .method(APP.method)
        .headers(h -> h.put("Accept", "application/json"))
        .timeout(300, TimeUnit.SECONDS)
        .send(
            new BufferingResponseListener(16 * 1024) {
              @Override
              public void onComplete(Result result) {
                if (result.isFailed()) {
                  count("failed: " + result.getFailure().getClass().getSimpleName());
                  retry(1, null);
                  return;
                }
                int status = result.getResponse().getStatus();
                String body = getContentAsString();
                if (replay) {
                  (APP.answered(status) ? replaysAdmitted : replaysRefused).incrementAndGet();
                  if (APP.answered(status)) {
                    admittedReplays.add(
                        String.format(
                            Locale.ROOT,
                            "sent at %.1f s, its first use served at %.1f s",
                            (sent - startNanos) / 1e9,
                            (user.servedNanos - startNanos) / 1e9));
                  }
                  count("replay: " + status + " " + reason(body));
                  return;
                }
                if (APP.answered(status)) {
                  count(status + " served");
                  answeredBySent.add(sent, 1);
                  user.servedNanos = System.nanoTime();
                  if (user.replays && token != null) {
                    timers.schedule(
                        () -> attempt(client, timers, work, user, token), 1, TimeUnit.SECONDS);
                  }
                  return;
                }
                String retryAfter = result.getResponse().getHeaders().get("Retry-After");
                int wait = retryAfter == null ? 1 : Integer.parseInt(retryAfter.trim());
                Matcher t = TOKEN.matcher(body);
                if (status == 503 && t.find()) {
                  count("503 wait with token");
                  if (user.promisedSeconds < 0) {
                    user.promisedSeconds = wait;
                  }
                  retry(wait, t.group(1));
                  return;
                }
                String reason = reason(body);
                count(status + " " + reason);
                retry(wait, "early".equals(reason) ? token : null);
              }

              private void retry(int seconds, String nextToken) {
                timers.schedule(
                    () -> attempt(client, timers, work, user, nextToken),
                    seconds * 1000L,
                    TimeUnit.MILLISECONDS);
              }
            });
  }

  private static String reason(String body) {
    Matcher r = REASON.matcher(body);
    return r.find() ? r.group(1) : "";
  }

  private void count(String answer) {
    answers.computeIfAbsent(answer, a -> new AtomicInteger()).incrementAndGet();
  }

  private void report(List<User> users, PerSecond arrivals, String loadBefore, String loadAfter)
      throws IOException {
    PerSecond letIn = APP == App.PAGE ? MeteredWorkServlet.arrivals() : answeredBySent;
    int seconds = Math.max(letIn.length(), arrivals.length());
    DescriptiveStatistics promised = new DescriptiveStatistics();
    DescriptiveStatistics lateness = new DescriptiveStatistics();
    PerSecond promisedBySecond = new PerSecond(0, MAX_SECONDS);
    PerSecond keptBySecond = new PerSecond(0, MAX_SECONDS);
    long served = 0;
    for (User u : users) {
      if (u.servedNanos == 0) {
        continue;
      }
      served++;
      double kept = (u.servedNanos - u.arrivalNanos) / 1e9;
      double promise = Math.max(0, u.promisedSeconds);
      promised.addValue(promise);
      lateness.addValue(kept - promise);
      promisedBySecond.add(u.arrivalOffsetNanos, promise);
      keptBySecond.add(u.arrivalOffsetNanos, kept);
    }
    DescriptiveStatistics before = new DescriptiveStatistics();
    DescriptiveStatistics after = new DescriptiveStatistics();
    for (int s = 2; s < seconds; s++) {
      if (letIn.count(s) == 0 && s > ARRIVAL_SECONDS) {
        break;
      }
      (s < STOP_AT_SECOND ? before : after).addValue(letIn.count(s));
    }
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# One waiting room on three nodes%n%n%d nodes (embedded Jetty 12, OverloadFilter"
                    + " with cluster.enabled, one Hazelcast member each on 127.0.0.1) behind"
                    + " HAProxy, round robin. Each node: %s. virtualQueue.capacity %d/s for the"
                    + " whole cluster, cluster.callTimeout %s. Users arrive at %.0f/s (5x) for %d"
                    + " s, then %.0f/s until %d s: %d users. Node %d stopped at %d s. Load average"
                    + " %s before, %s after.%n%n",
                NODES,
                APP == App.PAGE
                    ? String.format(
                        Locale.ROOT,
                        "a page working %d ms on %d permits (true capacity %d/s per node)",
                        SERVICE_MILLIS,
                        PERMITS,
                        PERMITS * 1000 / SERVICE_MILLIS)
                    : "the sample WAR with the cluster module added, its own overload.yaml, users"
                        + " posting /confirm (let in = answered by the shop, counted when sent)",
                CLUSTER_CAPACITY,
                CALL_TIMEOUT,
                CROWD_RATE,
                CROWD_SECONDS,
                LOW_RATE,
                ARRIVAL_SECONDS,
                users.size(),
                STOPPED_NODE,
                STOP_AT_SECOND,
                loadBefore,
                loadAfter));
    md.append("| | value |\n|---|---|\n");
    md.append(String.format(Locale.ROOT, "| users served | %d of %d |%n", served, users.size()));
    md.append(
        String.format(
            Locale.ROOT,
            "| let in per second, seconds 2-%d (three nodes):"
                + " mean / min / max | %.1f / %.0f / %.0f |%n",
            STOP_AT_SECOND - 1,
            before.getMean(),
            before.getMin(),
            before.getMax()));
    md.append(
        String.format(
            Locale.ROOT,
            "| let in per second, from %d s (two nodes) until the"
                + " room is empty: mean / min / max | %.1f / %.0f / %.0f |%n",
            STOP_AT_SECOND,
            after.getMean(),
            after.getMin(),
            after.getMax()));
    md.append(
        String.format(
            Locale.ROOT,
            "| seconds with more than the capacity (%d) let in |" + " %d |%n",
            CLUSTER_CAPACITY,
            over(letIn, seconds, CLUSTER_CAPACITY)));
    md.append(
        String.format(
            Locale.ROOT, "| wait promised, mean / p95 / max (s) | %s |%n", stats(promised)));
    md.append(
        String.format(
            Locale.ROOT,
            "| served minus promised, mean / p95 / max (s) | %s" + " |%n",
            stats(lateness)));
    md.append(
        String.format(
            Locale.ROOT,
            "| replays admitted / refused | %d / %d |%n",
            replaysAdmitted.get(),
            replaysRefused.get()));
    if (!admittedReplays.isEmpty()) {
      md.append("| replays admitted, when | ")
          .append(String.join("; ", admittedReplays))
          .append(" (node 2 stopped at ")
          .append(STOP_AT_SECOND)
          .append(" s) |\n");
    }
    StringBuilder a = new StringBuilder();
    new java.util.TreeMap<>(answers)
        .forEach(
            (k, v) -> a.append(a.length() == 0 ? "" : "; ").append(k).append(": ").append(v.get()));
    md.append("| answers | ").append(a).append(" |\n");
    List<Double> x = PerSecond.axis(seconds);
    List<Double> letInY = new ArrayList<>();
    List<Double> arrivalsY = new ArrayList<>();
    List<Double> capacityY = new ArrayList<>();
    List<Double> promisedY = new ArrayList<>();
    List<Double> keptY = new ArrayList<>();
    StringBuilder csv =
        new StringBuilder(
            "second,users_arriving,let_in,capacity," + "promised_wait_mean_s,kept_wait_mean_s\n");
    for (int s = 0; s < seconds; s++) {
      letInY.add((double) (s < letIn.length() ? letIn.count(s) : 0));
      arrivalsY.add((double) (s < arrivals.length() ? arrivals.count(s) : 0));
      capacityY.add((double) CLUSTER_CAPACITY);
      promisedY.add(s < promisedBySecond.length() ? promisedBySecond.mean(s) : Double.NaN);
      keptY.add(s < keptBySecond.length() ? keptBySecond.mean(s) : Double.NaN);
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%.0f,%.0f,%d,%.2f,%.2f%n",
              s,
              arrivalsY.get(s),
              letInY.get(s),
              CLUSTER_CAPACITY,
              promisedY.get(s),
              keptY.get(s)));
    }
    Path dir = ExperimentShop.OUT;
    String name = APP.report();
    Charts.lines(
        dir.resolve(name + "-load.png"),
        "Three nodes, one waiting room: per second",
        "time (s)",
        "requests/s",
        List.of(
            new Charts.Line("users arriving", x, arrivalsY),
            new Charts.Line("let in (all nodes)", x, letInY),
            new Charts.Line("cluster capacity", x, capacityY)),
        false);
    Charts.lines(
        dir.resolve(name + "-wait.png"),
        "Wait promised and kept, by arrival second",
        "arrival time (s)",
        "wait (s)",
        List.of(
            new Charts.Line("promised, mean", x, promisedY),
            new Charts.Line("kept (arrival to served), mean", x, keptY)),
        false);
    md.append(
        String.format(Locale.ROOT, "%n![load](%s-load.png)%n%n![wait](%s-wait.png)%n", name, name));
    Files.writeString(dir.resolve(name + ".csv"), csv);
    Files.writeString(dir.resolve(name + ".md"), md);
    System.out.println(md);
  }

  private static int over(PerSecond p, int seconds, double limit) {
    int n = 0;
    for (int s = 0; s < Math.min(seconds, p.length()); s++) {
      if (p.count(s) > limit) {
        n++;
      }
    }
    return n;
  }

  private static String stats(DescriptiveStatistics d) {
    return d.getN() == 0
        ? "–"
        : String.format(
            Locale.ROOT, "%.2f / %.2f / %.2f", d.getMean(), d.getPercentile(95), d.getMax());
  }
}
