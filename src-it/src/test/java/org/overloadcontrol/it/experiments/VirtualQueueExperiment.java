package org.overloadcontrol.it.experiments;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
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
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.it.load.Charts;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.WebContainer;

/**
 * WebQ §VI-D (Suresh et al., Figures 11–13) in embedded Jetty 12: a page that works 50 ms on
 * one of 2 execution permits (the filter's wait queue, FIFO, large enough to hold everyone), so
 * its true capacity is 40 requests a second. Users arrive in bursts of {@link #BURST_RATE} a
 * second for 10 s (3× the true capacity, as the paper's 2400/s against 720/s), then
 * {@link #LOW_RATE} a second for 30 s, three cycles; the same arrivals run twice, with the
 * virtual queue ({@code capacity} 36/s, a little below the truth) and without it. Every user
 * follows the API protocol until served: on 503 with a token, wait {@code Retry-After} and
 * retry with the token in {@code oc_token}; on any other 503, wait {@code Retry-After} and
 * join again. Measured per second: users arriving, requests reaching the application and
 * their response time at the server; per user: served or not, attempts and total wait.
 */
class VirtualQueueExperiment {

  static final int PERMITS = 2;
  static final int SERVICE_MILLIS = 50;
  static final double TRUE_CAPACITY = PERMITS * 1000.0 / SERVICE_MILLIS;
  static final int QUEUE_CAPACITY = 36;
  static final double BURST_RATE = 120;
  static final double LOW_RATE = 2;
  static final int BURST_SECONDS = 10;
  static final int CYCLE_SECONDS = 40;

  /** Cycles of burst and low load: {@code -Dexperiment.cycles}, default 3. */
  static final int CYCLES = Integer.getInteger("experiment.cycles", 3);

  /** How long after the last arrival the users still have to be served. */
  static final int DRAIN_SECONDS = 90;

  static final int MAX_SECONDS = CYCLES * CYCLE_SECONDS + DRAIN_SECONDS + 10;

  private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
  private static final Pattern REASON = Pattern.compile("\"reason\":\"([^\"]+)\"");

  /** One user: arrives once, retries until served. */
  static final class User {
    final long arrivalOffsetNanos;
    volatile long arrivalNanos;
    final AtomicInteger attempts = new AtomicInteger();
    volatile int assignedWaitSeconds = -1;
    volatile long servedNanos;
    volatile double servedResponseMillis;

    User(long arrivalOffsetNanos) {
      this.arrivalOffsetNanos = arrivalOffsetNanos;
    }

    boolean served() {
      return servedNanos != 0;
    }
  }

  /** What one run measured. */
  static final class Run {
    final String name;
    final List<User> users;
    final PerSecond arrivals;
    final PerSecond assignedWait;
    final PerSecond clientResponseMillis;
    final PerSecond letIn;
    final PerSecond appArrivals;
    final PerSecond serverResponseMillis;
    final PerSecond queueLength;
    List<Double> serverResponses = List.of();
    final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    final String loadBefore;
    String loadAfter;

    Run(String name, List<User> users, long start, String loadBefore) {
      this.name = name;
      this.users = users;
      this.arrivals = new PerSecond(start, MAX_SECONDS);
      this.assignedWait = new PerSecond(start, MAX_SECONDS);
      this.clientResponseMillis = new PerSecond(start, MAX_SECONDS);
      this.letIn = new PerSecond(start, MAX_SECONDS);
      this.appArrivals = MeteredWorkServlet.arrivals();
      this.serverResponseMillis = MeteredWorkServlet.responseMillis();
      this.queueLength = new PerSecond(start, MAX_SECONDS);
      this.loadBefore = loadBefore;
    }

    void count(String answer) {
      answers.computeIfAbsent(answer, a -> new AtomicInteger()).incrementAndGet();
    }
  }

  /** The same arrivals for both runs: Poisson at the burst rate, then at the low rate. */
  static List<Long> arrivalOffsets(long seed) {
    Random random = new Random(seed);
    List<Long> offsets = new ArrayList<>();
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      double t = cycle * CYCLE_SECONDS;
      double burstEnd = t + BURST_SECONDS;
      double cycleEnd = (cycle + 1) * CYCLE_SECONDS;
      while (true) {
        double rate = t < burstEnd ? BURST_RATE : LOW_RATE;
        double next = t - Math.log(1 - random.nextDouble()) / rate;
        if (t < burstEnd && next >= burstEnd) {
          t = burstEnd; // memoryless: start the low-rate segment afresh at the boundary
          continue;
        }
        if (next >= cycleEnd) {
          break;
        }
        t = next;
        offsets.add(Math.round(t * 1e9));
      }
    }
    return offsets;
  }

  @Test
  void burstsWithAndWithoutTheVirtualQueue() throws Exception {
    List<Long> offsets = arrivalOffsets(11L);
    Path keys = ExperimentShop.OUT.resolve("apps").resolve("virtual-queue.keys");
    Files.createDirectories(keys.getParent());
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    Files.writeString(keys, "experiment:" + Base64.getEncoder().encodeToString(key) + "\n");
    Run with = run("with the virtual queue", true, offsets, keys);
    Run without = run("without it", false, offsets, keys);
    report(with, without);
  }

  private static Run run(String name, boolean virtualQueue, List<Long> offsets, Path keys)
      throws Exception {
    Map<String, String> filter = permits();
    if (virtualQueue) {
      filter.put("virtualQueue.enabled", "true");
      filter.put("virtualQueue.paths", "/work");
      filter.put("virtualQueue.capacity", Integer.toString(QUEUE_CAPACITY));
      filter.put("virtualQueue.maxWait", "5m");
      filter.put("virtualQueue.grace", "10s");
      filter.put("virtualQueue.keyFile", keys.toAbsolutePath().toString());
    }
    Path dir =
        new ExplodedWebApp()
            .withOverloadFilter(filter)
            .withServlet(
                "work",
                MeteredWorkServlet.class,
                Map.of("serviceTimeMillis", Integer.toString(SERVICE_MILLIS)),
                "/work")
            .writeUnder(ExperimentShop.OUT.resolve("apps"), virtualQueue ? "vq-on" : "vq-off");
    List<User> users = new ArrayList<>();
    offsets.forEach(o -> users.add(new User(o)));
    try (WebContainer server = ContainerKind.JETTY.start(Deployment.of(dir))) {
      HttpClient client = client();
      ScheduledExecutorService timers =
          Executors.newScheduledThreadPool(
              2,
              r -> {
                Thread t = new Thread(r, "vq-user-timers");
                t.setDaemon(true);
                return t;
              });
      try {
        URI work = server.baseUri().resolve("work");
        for (int i = 0; i < 20; i++) { // warm up below capacity: class loading, JIT
          client
              .newRequest(work)
              .headers(h -> h.put("Accept", "application/json"))
              .timeout(10, TimeUnit.SECONDS)
              .send();
        }
        Thread.sleep(2000);
        // Buckets start on a wall-clock second, so they are the queue's one-second slots (it
        // counts in Unix seconds, §III-A) and "let in per second" is "let in per slot".
        long start = System.nanoTime() + (1000 - System.currentTimeMillis() % 1000) * 1_000_000L;
        MeteredWorkServlet.reset(start, MAX_SECONDS);
        Run run = new Run(name, users, start, ExperimentShop.load());
        EngineGauge gauge = new EngineGauge(server.servletContext());
        timers.scheduleAtFixedRate(
            () -> run.queueLength.add(System.nanoTime(), gauge.get().queueLength()),
            500,
            1000,
            TimeUnit.MILLISECONDS);
        for (User u : users) {
          long due = start + u.arrivalOffsetNanos;
          long now = System.nanoTime();
          if (due > now) {
            LockSupport.parkNanos(due - now);
          }
          u.arrivalNanos = System.nanoTime();
          run.arrivals.add(u.arrivalNanos, 1);
          attempt(client, timers, run, work, u, null);
        }
        long deadline = System.nanoTime() + DRAIN_SECONDS * 1_000_000_000L;
        while (System.nanoTime() < deadline && users.stream().anyMatch(u -> !u.served())) {
          Thread.sleep(200);
        }
        Thread.sleep(1500); // one more gauge reading after the last completion
        run.serverResponses = MeteredWorkServlet.allResponseMillis();
        run.loadAfter = ExperimentShop.load();
        return run;
      } finally {
        timers.shutdownNow();
        client.stop();
      }
    }
  }

  /** The page's permits: {@link #PERMITS}, one FIFO queue holding everyone for up to 300 s. */
  static Map<String, String> permits() {
    Map<String, String> filter = new LinkedHashMap<>();
    filter.put("queue.permits", Integer.toString(PERMITS));
    filter.put("queue.layout", "single");
    filter.put("queue.singleCapacity", "10000");
    filter.put("queue.maxWait", "300s");
    filter.put("queue.order", "fifo");
    return filter;
  }

  /** A client for users that follow the queue's protocol: many connections, no cookies. */
  static HttpClient client() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 4);
    threads.setName("vq-users");
    threads.setDaemon(true);
    HttpClient client = new HttpClient();
    client.setExecutor(threads);
    client.setMaxConnectionsPerDestination(4096);
    client.setMaxRequestsQueuedPerDestination(100_000);
    client.setFollowRedirects(false);
    client.setHttpCookieStore(new HttpCookieStore.Empty()); // the token travels in the URL
    client.start();
    return client;
  }

  /** One request of {@code user}, with its token when it has one; retries as the answer says. */
  private static void attempt(
      HttpClient client,
      ScheduledExecutorService timers,
      Run run,
      URI work,
      User user,
      String token) {
    user.attempts.incrementAndGet();
    URI target = token == null ? work : URI.create(work + "?oc_token=" + token);
    long sent = System.nanoTime();
    client
        .newRequest(target)
        .headers(h -> h.put("Accept", "application/json"))
        .timeout(300, TimeUnit.SECONDS)
        .send(
            new BufferingResponseListener(16 * 1024) {
              @Override
              public void onComplete(Result result) {
                long now = System.nanoTime();
                if (result.isFailed()) {
                  run.count("failed: " + result.getFailure().getClass().getSimpleName());
                  retry(1, null);
                  return;
                }
                int status = result.getResponse().getStatus();
                String body = getContentAsString();
                if (status == 200) {
                  run.count("200 served");
                  user.servedResponseMillis = (now - sent) / 1e6;
                  user.servedNanos = now;
                  run.clientResponseMillis.add(now, user.servedResponseMillis);
                  run.letIn.add(sent, 1);
                  return;
                }
                String retryAfter = result.getResponse().getHeaders().get("Retry-After");
                int wait = retryAfter == null ? 1 : Integer.parseInt(retryAfter.trim());
                Matcher t = TOKEN.matcher(body);
                if (status == 503 && t.find()) {
                  run.count("503 wait with token");
                  if (user.assignedWaitSeconds < 0) {
                    user.assignedWaitSeconds = wait;
                    run.assignedWait.add(user.arrivalNanos, wait);
                  }
                  retry(wait, t.group(1));
                  return;
                }
                Matcher r = REASON.matcher(body);
                String reason = r.find() ? r.group(1) : "";
                run.count(status + " " + reason);
                // An early ticket keeps its place; anything else joins the queue again.
                retry(wait, "early".equals(reason) ? token : null);
              }

              private void retry(int seconds, String nextToken) {
                timers.schedule(
                    () -> attempt(client, timers, run, work, user, nextToken),
                    seconds * 1000L,
                    TimeUnit.MILLISECONDS);
              }
            });
  }

  private static void report(Run with, Run without) throws Exception {
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# The virtual queue"
                    + " (WebQ §VI-D) under bursts%n%nOverloadFilter in embedded Jetty 12 in front of a page"
                    + " that works %d ms on one of %d execution permits (queue.permits %d, one FIFO queue"
                    + " holding up to 10 000 requests for up to 300 s): true capacity %.0f requests/s."
                    + " Users arrive (Poisson) at %.0f/s for %d s, then %.0f/s for %d s; %d cycles, %d"
                    + " users, the same arrivals in both runs. With the virtual queue: virtualQueue.capacity"
                    + " %d on /work, maxWait 5m, grace 10s. Every user is an API client that follows the"
                    + " protocol until served (wait Retry-After, retry with oc_token). Response time at the"
                    + " server is from the filter's arrival to the end of the page's work (the paper's"
                    + " Figure 13 counts the same: not the virtual wait).%n%n",
                SERVICE_MILLIS,
                PERMITS,
                PERMITS,
                TRUE_CAPACITY,
                BURST_RATE,
                BURST_SECONDS,
                LOW_RATE,
                CYCLE_SECONDS - BURST_SECONDS,
                CYCLES,
                with.users.size(),
                QUEUE_CAPACITY));
    md.append("| | with the virtual queue | without it |\n|---|---|---|\n");
    row(
        md,
        "load average before / after",
        with.loadBefore + " / " + with.loadAfter,
        without.loadBefore + " / " + without.loadAfter);
    row(md, "users served", served(with), served(without));
    row(md, "attempts per user, mean", f1(attempts(with)), f1(attempts(without)));
    row(md, "requests let into the server, peak per second", peak(with.letIn), peak(without.letIn));
    row(
        md,
        "seconds (slots) with more than the configured capacity (36) let in",
        over(with.letIn, QUEUE_CAPACITY),
        over(without.letIn, QUEUE_CAPACITY));
    row(
        md,
        "requests reaching the application, peak per second",
        peak(with.appArrivals),
        peak(without.appArrivals));
    row(
        md,
        "seconds with more than the true capacity (40) at the application",
        over(with.appArrivals, TRUE_CAPACITY),
        over(without.appArrivals, TRUE_CAPACITY));
    row(
        md,
        "seconds with more than the configured capacity (36) at the application",
        over(with.appArrivals, QUEUE_CAPACITY),
        over(without.appArrivals, QUEUE_CAPACITY));
    row(
        md,
        "response time at the server, mean / p95 / max (s)",
        stats(server(with)),
        stats(server(without)));
    row(
        md,
        "response time seen by the user for the served request, mean / p95 / max (s)",
        stats(clientResponse(with)),
        stats(clientResponse(without)));
    row(md, "virtual wait assigned, mean / p95 / max (s)", stats(assigned(with)), "–");
    row(
        md,
        "total wait, first request to served, mean / p95 / max (s)",
        stats(totalWait(with)),
        stats(totalWait(without)));
    row(
        md,
        "filter's wait queue, largest (requests)",
        f0(maxOf(with.queueLength)),
        f0(maxOf(without.queueLength)));
    row(md, "answers", answers(with), answers(without));
    int seconds = Math.max(with.appArrivals.length(), without.appArrivals.length());
    seconds = Math.max(seconds, with.arrivals.length());
    List<Double> x = PerSecond.axis(seconds);
    Charts.lines(
        ExperimentShop.OUT.resolve("virtual-queue-load.png"),
        "Load per second (WebQ Fig. 11)",
        "time (s)",
        "requests/s",
        List.of(
            new Charts.Line("users arriving", x, series(with.arrivals, seconds, false)),
            new Charts.Line(
                "let into the server, with the virtual queue",
                x,
                series(with.letIn, seconds, false)),
            new Charts.Line(
                "at the application, with the virtual queue",
                x,
                series(with.appArrivals, seconds, false)),
            new Charts.Line(
                "at the application, without it", x, series(without.appArrivals, seconds, false)),
            new Charts.Line("true capacity", x, constant(seconds, TRUE_CAPACITY))),
        false);
    Charts.lines(
        ExperimentShop.OUT.resolve("virtual-queue-wait.png"),
        "Virtual wait assigned per arrival second (WebQ Fig. 12)",
        "arrival time (s)",
        "wait (s)",
        List.of(
            new Charts.Line("mean", x, series(with.assignedWait, seconds, true)),
            new Charts.Line("max", x, maxSeries(with.assignedWait, seconds))),
        false);
    Charts.lines(
        ExperimentShop.OUT.resolve("virtual-queue-response.png"),
        "Response time at the server, mean per second (WebQ Fig. 13)",
        "time (s)",
        "response time (s)",
        List.of(
            new Charts.Line(
                "with the virtual queue",
                x,
                scaled(series(with.serverResponseMillis, seconds, true), 1e-3)),
            new Charts.Line(
                "without it",
                x,
                scaled(series(without.serverResponseMillis, seconds, true), 1e-3))),
        false);
    md.append(
        "\n![load](virtual-queue-load.png)\n\n![wait](virtual-queue-wait.png)\n\n"
            + "![response time](virtual-queue-response.png)\n");
    StringBuilder csv =
        new StringBuilder(
            "second,users_arriving,let_in_with,app_with,"
                + "app_without,server_ms_with,server_ms_without,assigned_wait_mean_s,queue_with,"
                + "queue_without\n");
    for (int s = 0; s < seconds; s++) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%d,%d,%d,%d,%s,%s,%s,%s,%s%n",
              s + 1,
              count(with.arrivals, s),
              count(with.letIn, s),
              count(with.appArrivals, s),
              count(without.appArrivals, s),
              num(mean(with.serverResponseMillis, s)),
              num(mean(without.serverResponseMillis, s)),
              num(mean(with.assignedWait, s)),
              num(mean(with.queueLength, s)),
              num(mean(without.queueLength, s))));
    }
    Files.writeString(ExperimentShop.OUT.resolve("virtual-queue.csv"), csv);
    Files.writeString(ExperimentShop.OUT.resolve("virtual-queue.md"), md);
    System.out.println(md);
  }

  private static void row(StringBuilder md, String label, String a, String b) {
    md.append("| ").append(label).append(" | ").append(a).append(" | ").append(b).append(" |\n");
  }

  private static String served(Run r) {
    long n = r.users.stream().filter(User::served).count();
    return String.format(
        Locale.ROOT, "%d of %d (%.1f %%)", n, r.users.size(), 100.0 * n / r.users.size());
  }

  private static double attempts(Run r) {
    return r.users.stream().mapToInt(u -> u.attempts.get()).average().orElse(Double.NaN);
  }

  private static String peak(PerSecond p) {
    long max = 0;
    for (int s = 0; s < p.length(); s++) {
      max = Math.max(max, p.count(s));
    }
    return Long.toString(max);
  }

  private static String over(PerSecond p, double limit) {
    int n = 0;
    for (int s = 0; s < p.length(); s++) {
      if (p.count(s) > limit) {
        n++;
      }
    }
    return Integer.toString(n);
  }

  private static DescriptiveStatistics server(Run r) {
    DescriptiveStatistics d = new DescriptiveStatistics();
    r.serverResponses.forEach(v -> d.addValue(v / 1000));
    return d;
  }

  private static DescriptiveStatistics clientResponse(Run r) {
    DescriptiveStatistics d = new DescriptiveStatistics();
    r.users.stream().filter(User::served).forEach(u -> d.addValue(u.servedResponseMillis / 1e3));
    return d;
  }

  private static DescriptiveStatistics assigned(Run r) {
    DescriptiveStatistics d = new DescriptiveStatistics();
    r.users.stream()
        .filter(u -> u.assignedWaitSeconds >= 0)
        .forEach(u -> d.addValue(u.assignedWaitSeconds));
    return d;
  }

  private static DescriptiveStatistics totalWait(Run r) {
    DescriptiveStatistics d = new DescriptiveStatistics();
    r.users.stream()
        .filter(User::served)
        .forEach(u -> d.addValue((u.servedNanos - u.arrivalNanos) / 1e9));
    return d;
  }

  private static String stats(DescriptiveStatistics d) {
    if (d.getN() == 0) {
      return "–";
    }
    return String.format(
        Locale.ROOT, "%.2f / %.2f / %.2f", d.getMean(), d.getPercentile(95), d.getMax());
  }

  private static String answers(Run r) {
    StringBuilder b = new StringBuilder();
    new java.util.TreeMap<>(r.answers)
        .forEach(
            (k, v) -> b.append(b.length() == 0 ? "" : "; ").append(k).append(": ").append(v.get()));
    return b.toString();
  }

  private static double maxOf(PerSecond p) {
    double max = 0;
    for (int s = 0; s < p.length(); s++) {
      if (p.count(s) > 0) {
        max = Math.max(max, p.max(s));
      }
    }
    return max;
  }

  private static List<Double> series(PerSecond p, int seconds, boolean mean) {
    List<Double> y = new ArrayList<>(seconds);
    for (int s = 0; s < seconds; s++) {
      y.add(mean ? mean(p, s) : (double) count(p, s));
    }
    return y;
  }

  private static List<Double> maxSeries(PerSecond p, int seconds) {
    List<Double> y = new ArrayList<>(seconds);
    for (int s = 0; s < seconds; s++) {
      y.add(s < p.length() ? p.max(s) : Double.NaN);
    }
    return y;
  }

  private static List<Double> scaled(List<Double> values, double factor) {
    return values.stream().map(v -> v * factor).toList();
  }

  private static List<Double> constant(int seconds, double value) {
    List<Double> y = new ArrayList<>(seconds);
    for (int s = 0; s < seconds; s++) {
      y.add(value);
    }
    return y;
  }

  private static long count(PerSecond p, int s) {
    return s < p.length() ? p.count(s) : 0;
  }

  private static double mean(PerSecond p, int s) {
    return s < p.length() ? p.mean(s) : Double.NaN;
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String f0(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }
}
