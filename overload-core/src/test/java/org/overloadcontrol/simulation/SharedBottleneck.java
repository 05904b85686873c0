package org.overloadcontrol.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * A deterministic discrete-event simulation of several endpoints on one shared bottleneck,
 * driving the real {@link OverloadEngine} (admission, concurrency groups, wait queues, timers)
 * on a simulated clock: Poisson arrivals (seeded) spread over the endpoints by traffic share;
 * a server of {@code 2 × servers} workers with exponential service times of mean 50 ms (40
 * requests/s per server), requests beyond the workers waiting in the server's own FIFO queue,
 * as they would for a database connection. An adapter's part is played here: ADMIT starts the
 * request, WAIT enqueues it, a resumed waiter starts, REJECT and expiry complete it at once.
 * The clock jumps from event to event; a minute of 1,600 requests/s runs in about a second.
 */
public final class SharedBottleneck {

  static final long MS = 1_000_000L;
  static final long SECOND = 1_000L * MS;

  /** Traffic shares of the eight endpoints. */
  static final double[] SHARES = {0.30, 0.20, 0.15, 0.12, 0.08, 0.06, 0.05, 0.04};

  static final double PER_SERVER = 40.0;
  static final long MEAN_SERVICE = 50 * MS;
  static final int WORKERS_PER_SERVER = 2;

  /** The controllers compared, as configuration on top of eight endpoints with a target. */
  public enum Variant {
    /** The concurrency limit (the default). */
    CONCURRENCY(Map.of()),
    /** The rate controller as it stands, fresh-sample judging on. */
    RATE(Map.of("admission.controller", "rate")),
    /** As {@link #RATE}, increases proportional to the rate. */
    RATE_PROPORTIONAL(
        Map.of("admission.controller", "rate", "controller.proportionalIncrease", "true")),
    /** The paper's exact rate controller. */
    RATE_PAPER(Map.of("admission.controller", "rate", "controller.judgeOnFreshSamples", "false"));

    final Map<String, String> keys;

    Variant(Map<String, String> keys) {
      this.keys = keys;
    }
  }

  /** What a run measured over its steady part. */
  public record Result(
      double goodputOfCapacity,
      double p90OfTarget,
      double worstEndpointP90,
      long completed,
      long refused,
      long expired,
      double waitP90OfTarget,
      double executionP90OfTarget,
      double purchasesPerMinute) {
    @Override
    public String toString() {
      return String.format(
          java.util.Locale.ROOT,
          "goodput %.2f, p90 %.2f (worst endpoint %.2f;"
              + " wait %.2f, execution %.2f), completed %d, refused %d, expired %d, purchases/min"
              + " %.1f",
          goodputOfCapacity,
          p90OfTarget,
          worstEndpointP90,
          waitP90OfTarget,
          executionP90OfTarget,
          completed,
          refused,
          expired,
          purchasesPerMinute);
    }
  }

  private final EventClock clock = new EventClock();
  private final Random random;
  private final OverloadEngine engine;
  private final EndpointClass[] routes = new EndpointClass[SHARES.length];
  private final int workers;
  private final ArrayDeque<RequestTag> serverQueue = new ArrayDeque<>();
  private int busy;
  private final long targetNanos;

  /** Per endpoint: its target, and its fixed service time (0: exponential, mean 50 ms). */
  private final long[] targetOf;

  private final long[] serviceOf;

  /** The shop's session chain, null for independent arrivals. */
  private final ShopSessions shop;

  private long busyNanos;
  private long idleWhileWaiting;
  private long purchases;
  private long measureFrom;
  private long measureTo;
  private final List<Long>[] responses;
  private long completed;
  private long refused;
  private long expired;
  private final Map<RequestTag, Integer> endpointOf = new HashMap<>();
  private final List<Long> waits = new ArrayList<>();
  private final List<Long> executions = new ArrayList<>();

  /** Per endpoint: the wait and execution of each measured response over its target. */
  private final List<long[]>[] late;

  /**
   * @param variant the controller
   * @param servers the bottleneck's size: 40 requests/s each
   * @param targetMillis every endpoint's p90 target
   * @param extra further keys (tests)
   */
  public SharedBottleneck(
      Variant variant, int servers, long targetMillis, long seed, Map<String, String> extra) {
    this(variant, servers, targetMillis, seed, extra, AdmissionListener.NONE);
  }

  /** As above, telling {@code listener} about every controller round. */
  @SuppressWarnings("unchecked")
  public SharedBottleneck(
      Variant variant,
      int servers,
      long targetMillis,
      long seed,
      Map<String, String> extra,
      AdmissionListener listener) {
    this(variant, servers * WORKERS_PER_SERVER, targetMillis, seed, extra, listener, null);
  }

  @SuppressWarnings("unchecked")
  private SharedBottleneck(
      Variant variant,
      int workers,
      long targetMillis,
      long seed,
      Map<String, String> extra,
      AdmissionListener listener,
      ShopSessions shop) {
    this.random = new Random(seed);
    this.workers = workers;
    this.targetNanos = targetMillis * MS;
    this.shop = shop;
    this.targetOf = new long[SHARES.length];
    this.serviceOf = new long[SHARES.length];
    Map<String, String> keys = new LinkedHashMap<>();
    for (int i = 0; i < SHARES.length; i++) {
      targetOf[i] = shop == null ? targetNanos : ShopSessions.TARGETS[i] * MS;
      serviceOf[i] = shop == null ? 0 : ShopSessions.SERVICE[i] * MS;
      keys.put("endpoints.e" + i + ".target", targetOf[i] / MS + "ms");
    }
    if (shop != null) {
      keys.putAll(shop.classes());
    }
    keys.putAll(variant.keys);
    keys.putAll(extra);
    engine =
        OverloadEngine.builder(OverloadConfig.of(keys))
            .ticker(clock)
            .scheduler(clock)
            .admissionListener(listener)
            .build();
    for (int i = 0; i < SHARES.length; i++) {
      routes[i] = engine.routes().route("e" + i, null);
    }
    @SuppressWarnings("unchecked") // an array of a generic type has no other way in
    List<Long>[] perStage = (List<Long>[]) new List<?>[SHARES.length];
    responses = perStage;
    @SuppressWarnings("unchecked") // as above
    List<long[]>[] lateByStage = (List<long[]>[]) new List<?>[SHARES.length];
    late = lateByStage;
    for (int i = 0; i < SHARES.length; i++) {
      responses[i] = new ArrayList<>();
      late[i] = new ArrayList<>();
    }
  }

  /**
   * The shop-like case: the sample shop's eight pages on one database connection (its service
   * times at time scale 0.1, 20–50 ms; targets 200 ms for the browsing pages, 150 ms for the
   * checkout pages; every page its own class, checkout ranked above browsing; 6 wait-queue
   * permits as the shop ships), offered as sessions of users who leave at their first refusal
   * (see {@link ShopSessions}). Run it with {@link #runSessions}.
   */
  public static SharedBottleneck shop(
      Variant variant, long seed, Map<String, String> extra, AdmissionListener listener) {
    return shop(variant, seed, extra, listener, new ShopSessions());
  }

  /** As above, with the sessions of {@code chain} (e.g. {@link ShopSessions#sweep()}). */
  static SharedBottleneck shop(
      Variant variant,
      long seed,
      Map<String, String> extra,
      AdmissionListener listener,
      ShopSessions chain) {
    return new SharedBottleneck(variant, 1, 200, seed, extra, listener, chain);
  }

  public OverloadEngine engine() {
    return engine;
  }

  public static double capacity(int servers) {
    return servers * PER_SERVER;
  }

  /**
   * Offers Poisson arrivals at {@code load × capacity} for {@code seconds}, measuring requests
   * that arrive in the last {@code seconds − warmup} seconds.
   */
  public Result run(double load, int seconds, int warmupSeconds) {
    return run(load, seconds, warmupSeconds, 5);
  }

  /** As above, then {@code drainSeconds} without arrivals for the last requests to finish. */
  public Result run(double load, int seconds, int warmupSeconds, int drainSeconds) {
    double rate = load * capacity(workers / WORKERS_PER_SERVER);
    for (List<Long> r : responses) {
      r.clear();
    }
    for (List<long[]> l : late) {
      l.clear();
    }
    waits.clear();
    executions.clear();
    completed = 0;
    refused = 0;
    expired = 0;
    busyNanos = 0;
    idleWhileWaiting = 0;
    purchases = 0;
    long start = clock.read();
    long end = start + seconds * SECOND;
    measureFrom = start + warmupSeconds * SECOND;
    measureTo = end;
    if (shop != null) {
      // Sessions, each worth meanWork of the server: the load is the offered work.
      rate = load * workers / (shop.meanWorkNanos / (double) SECOND);
    }
    long next = start + interArrival(rate);
    while (next < end) {
      advanceTo(next);
      arrive(shop == null ? pickEndpoint() : ShopSessions.HOME);
      next += interArrival(rate);
    }
    advanceTo(end + drainSeconds * SECOND); // let the measured requests finish
    if (shop != null) {
      return shopResult();
    }
    List<Long> all = new ArrayList<>();
    double worst = 0;
    for (List<Long> r : responses) {
      all.addAll(r);
      if (r.size() >= 20) {
        worst = Math.max(worst, p90(r) / (double) targetNanos);
      }
    }
    double seconds2 = (measureTo - measureFrom) / (double) SECOND;
    long measured = all.size();
    return new Result(
        measured / seconds2 / capacity(workers / WORKERS_PER_SERVER),
        all.isEmpty() ? Double.NaN : p90(all) / (double) targetNanos,
        worst,
        measured,
        refused,
        expired,
        waits.isEmpty() ? Double.NaN : p90(waits) / (double) targetNanos,
        executions.isEmpty() ? Double.NaN : p90(executions) / (double) targetNanos,
        0);
  }

  private Result shopResult() {
    // Response times in thousandths of their page's target, so pages of two targets mix.
    List<Long> all = new ArrayList<>();
    double worst = 0;
    for (int i = 0; i < SHARES.length; i++) {
      for (long r : responses[i]) {
        all.add(r * 1000 / targetOf[i]);
      }
      if (responses[i].size() >= 20) {
        worst = Math.max(worst, p90(responses[i]) / (double) targetOf[i]);
      }
    }
    double seconds = (measureTo - measureFrom) / (double) SECOND;
    // Goodput: the server's time spent on measured requests that completed, as a share of
    // all its time, so that pages of different cost count by their cost.
    return new Result(
        busyNanos / (seconds * SECOND * workers),
        all.isEmpty() ? Double.NaN : p90(all) / 1000.0,
        worst,
        all.size(),
        refused,
        expired,
        waits.isEmpty() ? Double.NaN : p90(waits) / (double) targetNanos,
        executions.isEmpty() ? Double.NaN : p90(executions) / (double) targetNanos,
        purchases * 60.0 / seconds);
  }

  private static long p90(List<Long> values) {
    long[] v = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(v);
    return v[(int) Math.ceil(0.9 * v.length) - 1];
  }

  private int pickEndpoint() {
    double u = random.nextDouble();
    for (int i = 0; i < SHARES.length; i++) {
      u -= SHARES[i];
      if (u < 0) {
        return i;
      }
    }
    return SHARES.length - 1;
  }

  private long interArrival(double ratePerSecond) {
    return Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) / ratePerSecond * SECOND));
  }

  private void arrive(int endpoint) {
    long now = clock.read();
    RequestTag tag = engine.tag(routes[endpoint], now);
    endpointOf.put(tag, endpoint);
    Decision d = engine.arrive(tag);
    switch (d) {
      case ADMIT -> start(tag);
      case REJECT -> finish(tag, Outcome.REJECTED);
      case WAIT -> {
        if (!engine.enqueue(
            tag,
            new Waiter.Listener() {
              @Override
              public void resumed(Waiter waiter) {
                start(tag);
              }

              @Override
              public void expired(Waiter waiter) {
                finish(tag, Outcome.EXPIRED);
              }
            })) {
          finish(tag, Outcome.REJECTED);
        }
      }
    }
  }

  private void start(RequestTag tag) {
    if (busy < workers) {
      busy++;
      schedule(clock.read() + serviceTime(tag), () -> done(tag));
    } else {
      serverQueue.addLast(tag);
    }
  }

  private long serviceTime(RequestTag tag) {
    long fixed = serviceOf[endpointOf.get(tag)];
    return fixed > 0
        ? fixed
        : Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) * MEAN_SERVICE));
  }

  private void done(RequestTag tag) {
    busy--;
    RequestTag next = serverQueue.pollFirst();
    if (next != null) {
      busy++;
      schedule(clock.read() + serviceTime(next), () -> done(next));
    }
    finish(tag, Outcome.COMPLETED);
  }

  private void finish(RequestTag tag, Outcome outcome) {
    int endpoint = endpointOf.remove(tag);
    long arrival = tag.arrivalNanos();
    boolean measured = arrival >= measureFrom && arrival < measureTo;
    if (measured) {
      switch (outcome) {
        case COMPLETED -> {
          completed++;
          responses[endpoint].add(clock.read() - arrival);
          long waited = tag.waited().toNanos();
          if (clock.read() - arrival > targetOf[endpoint]) {
            late[endpoint].add(new long[] {waited, clock.read() - arrival - waited});
          }
          waits.add(waited);
          executions.add(clock.read() - arrival - waited);
          busyNanos += serviceOf[endpoint];
          if (endpoint == ShopSessions.CONFIRM && shop != null) {
            purchases++;
          }
        }
        case EXPIRED -> expired++;
        default -> refused++;
      }
    }
    engine.settle(tag, outcome, -1);
    if (shop != null && outcome == Outcome.COMPLETED && clock.read() < measureTo) {
      // The user thinks, then asks for the next page; a refused user has left.
      int nextPage = shop.next(endpoint, random);
      if (nextPage >= 0) {
        schedule(
            clock.read() + interArrival(1.0 / ShopSessions.THINK_SECONDS), () -> arrive(nextPage));
      }
    }
  }

  /**
   * Each page's p90 over its target whatever its number of responses (the experiments' bar
   * counts a page served four times), in the order of the endpoints; NaN for a page not served.
   */
  public double[] pageP90s() {
    double[] out = new double[SHARES.length];
    for (int i = 0; i < SHARES.length; i++) {
      out[i] = responses[i].isEmpty() ? Double.NaN : p90(responses[i]) / (double) targetOf[i];
    }
    return out;
  }

  /**
   * Each page's largest response over its target in the last run, NaN for a page not served:
   * the p90 of a page served under ten times in a step.
   */
  public double[] pageLargest() {
    double[] out = new double[SHARES.length];
    for (int i = 0; i < SHARES.length; i++) {
      out[i] =
          responses[i].stream().mapToLong(Long::longValue).max().orElse(-1L) / (double) targetOf[i];
      if (responses[i].isEmpty()) {
        out[i] = Double.NaN;
      }
    }
    return out;
  }

  /** Each page's responses in the last run. */
  public int[] pageCounts() {
    int[] out = new int[SHARES.length];
    for (int i = 0; i < SHARES.length; i++) {
      out[i] = responses[i].size();
    }
    return out;
  }

  /**
   * The wait and the execution (nanoseconds) of every measured response of {@code endpoint}
   * that was over its target in the last run.
   */
  public List<long[]> lateResponses(int endpoint) {
    return List.copyOf(late[endpoint]);
  }

  /** Requests the engine has not seen an outcome for. */
  public int unfinished() {
    return endpointOf.size();
  }

  private void schedule(long at, Runnable r) {
    clock.at(at, r);
  }

  /** Runs every event (and timer) due up to {@code t}, each at its own time. */
  private void advanceTo(long t) {
    clock.advanceTo(t, this::noteIdle);
  }

  /** Counts the time the server sat idle while requests waited for admission. */
  private void noteIdle(long until) {
    long now = clock.read();
    if (until > now
        && busy < workers
        && now >= measureFrom
        && now < measureTo
        && engine.queues() != null
        && engine.queues().waitingCount() > 0) {
      idleWhileWaiting += (until - now) * (workers - busy);
    }
  }

  /** Worker time idle while some request waited for admission, over the last run's length. */
  public double idleWhileWaitingShare() {
    return idleWhileWaiting / (double) ((measureTo - measureFrom) * workers);
  }

  /** Prints the table of docs/controller.md. */
  public static void main(String[] args) {
    System.out.println(table(new double[] {1, 2, 4, 10}, new int[] {1, 2, 4}));
  }

  /** One line per variant, servers and load. */
  public static String table(double[] loads, int[] serverCounts) {
    StringBuilder out = new StringBuilder();
    out.append(
        "| controller | servers | load | goodput / capacity | p90 / target | worst"
            + " endpoint's p90 / target |\n|---|---|---|---|---|---|\n");
    for (Variant v : Variant.values()) {
      for (int servers : serverCounts) {
        for (double load : loads) {
          // The rate controllers start at the capacity's fair share per endpoint: from the
          // published 100/s each (800/s into a 40/s server) their backlog alone took minutes.
          Map<String, String> start =
              v == Variant.CONCURRENCY
                  ? Map.of()
                  : Map.of("controller.initialRate", Double.toString(capacity(servers) / 8));
          Result r = new SharedBottleneck(v, servers, 200, 42, start).run(load, 60, 10);
          out.append(
              String.format(
                  java.util.Locale.ROOT,
                  "| %s | %d | %.0f× | %.2f | %.2f | %.2f |%n",
                  v.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                  servers,
                  load,
                  r.goodputOfCapacity(),
                  r.p90OfTarget(),
                  r.worstEndpointP90()));
        }
      }
    }
    return out.toString();
  }
}
