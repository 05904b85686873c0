package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * Every request gets exactly one outcome (docs/design.md, "Request life cycle": none is lost,
 * answered twice or left suspended) under concurrency, with clients that give up while they wait or run, an
 * application that fails some requests and throws on others, rate refusals, full queues,
 * deadlines, and the server stopped in the middle of the run.
 */
class ExactlyOnceTest {

  /** What the outermost handler saw of one request: Jetty callback completions, a throw. */
  static final class Seen {
    final Request request;
    final AtomicInteger completions = new AtomicInteger();
    volatile boolean threw;

    Seen(Request request) {
      this.request = request;
    }

    RequestTag tag() {
      return (RequestTag) request.getAttribute(OverloadContext.ATTRIBUTE);
    }
  }

  /** Outermost: counts how often each request's Jetty callback is completed. */
  static final class Recorder extends Handler.Wrapper {
    final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

    Recorder(Handler handler) {
      super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      Seen s = new Seen(request);
      seen.add(s);
      Callback counting =
          new Callback.Nested(callback) {
            @Override
            public void succeeded() {
              s.completions.incrementAndGet();
              super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
              s.completions.incrementAndGet();
              super.failed(x);
            }
          };
      try {
        return super.handle(request, response, counting);
      } catch (Throwable x) {
        s.threw = true;
        throw x;
      }
    }
  }

  /** The application: answers after 0–30 ms on its own timer; fails 5 %, throws on 5 %. */
  static final class Application extends Handler.Abstract {
    final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    final String body;

    Application(int bodyBytes) {
      this.body = "o".repeat(bodyBytes);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      int dice = ThreadLocalRandom.current().nextInt(100);
      if (dice < 5) {
        throw new IllegalStateException("application bug");
      }
      timer.schedule(
          () -> {
            if (dice < 10) {
              callback.failed(new IllegalStateException("application failure"));
            } else {
              JettyHarness.answer(response, callback, body);
            }
          },
          ThreadLocalRandom.current().nextInt(31),
          TimeUnit.MILLISECONDS);
      return true;
    }
  }

  /** Paths the client saw answered with 500. */
  private static final java.util.Set<String> FIVE_HUNDREDS =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static void send(
      JettyHarness jetty,
      String path,
      long timeoutMillis,
      boolean gold,
      boolean bot,
      Map<Integer, AtomicInteger> statuses,
      AtomicInteger clientFailures,
      CountDownLatch answered) {
    jetty
        .client
        .newRequest(jetty.uri(path))
        .headers(
            h -> {
              h.put("X-Tier", gold ? "gold" : "plain");
              if (bot) {
                h.put("X-Bot", "1");
              }
            })
        .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
        .send(
            result -> {
              if (result.isSucceeded()) {
                statuses
                    .computeIfAbsent(result.getResponse().getStatus(), k -> new AtomicInteger())
                    .incrementAndGet();
                if (result.getResponse().getStatus() == 500) {
                  FIVE_HUNDREDS.add(result.getRequest().getPath());
                }
              } else {
                clientFailures.incrementAndGet();
              }
              answered.countDown();
            });
  }

  @Test
  void everyRequestGetsExactlyOneOutcome() throws Exception {
    Map<Outcome, Long> outcomes =
        run(OverloadHandler.builder(), new Application(2), n -> "/r" + n, n -> false);
    assertThat(outcomes.get(Outcome.REJECTED) + outcomes.get(Outcome.EXPIRED)).isPositive();
  }

  /**
   * The same with the virtual queue in front of a third of the requests and bandwidth shares
   * that delay, refuse with 429 (standby full, delay too long) and 403 (a 0 % group): requests
   * told to wait, refused, held on a timer, held in a queue, running, abandoned by their
   * client, and caught by the stop, each get one outcome.
   */
  @Test
  void everyRequestGetsExactlyOneOutcomeThroughTheVirtualQueueAndBandwidthShares()
      throws Exception {
    OverloadHandlerBuilder features =
        OverloadHandler.builder()
            .put("virtualQueue.enabled", "true")
            .put("virtualQueue.paths", "/q/*")
            .put("virtualQueue.capacity", "10")
            .put("virtualQueue.maxWait", "5s")
            .put("bandwidth.total", "100KB/s")
            .put("bandwidth.managerPeriod", "50ms")
            .put("bandwidth.standbyLimit", "3")
            .put("bandwidth.maxDelay", "150ms")
            .put("bandwidth.groups.bots.share", "0%")
            .put("bandwidth.groups.bots.match.header", "X-Bot")
            .put("bandwidth.groups.gold.share", "60%")
            .put("bandwidth.groups.gold.match.header", "X-Tier=gold")
            .put("bandwidth.groups.plain.share", "20%")
            .put("bandwidth.defaultGroup", "plain");
    Map<Integer, AtomicInteger> statuses = new java.util.concurrent.ConcurrentHashMap<>();
    Map<Outcome, Long> outcomes =
        run(
            features,
            new Application(1_000),
            n -> n % 3 == 0 ? "/q/r" + n : "/r" + n,
            n -> n % 10 == 0,
            statuses);
    assertThat(outcomes.get(Outcome.REDIRECTED)).as("told to wait").isPositive();
    assertThat(statuses).as("the 0 %% group refused").containsKey(403);
    assertThat(statuses).as("a group over its share refused").containsKey(429);
  }

  private Map<Outcome, Long> run(
      OverloadHandlerBuilder builder,
      Application app,
      java.util.function.IntFunction<String> pathOf,
      java.util.function.IntPredicate bot)
      throws Exception {
    return run(builder, app, pathOf, bot, new java.util.concurrent.ConcurrentHashMap<>());
  }

  /** Sends 600 requests, stops the server midway, and checks one outcome for each. */
  private Map<Outcome, Long> run(
      OverloadHandlerBuilder builder,
      Application app,
      java.util.function.IntFunction<String> pathOf,
      java.util.function.IntPredicate bot,
      Map<Integer, AtomicInteger> statuses)
      throws Exception {
    FIVE_HUNDREDS.clear();
    OverloadHandler handler =
        builder
            .requestClass("gold", 5, org.overloadcontrol.base.RequestKind.TRANSACTION, 1)
            .match("gold", "header", "X-Tier=gold")
            .put("endpoints.default.target", "200ms")
            .put("controller.initialRate", "400")
            .put("controller.bucketDepth", "10")
            .permits(6)
            .put("queue.browsingCapacity", "12")
            .put("queue.transactionCapacity", "6")
            .put("queue.maxWait", "150ms")
            .handler(app)
            .build();
    Recorder recorder = new Recorder(handler);
    int total = 600;
    CountDownLatch answered = new CountDownLatch(total);
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger clientFailures = new AtomicInteger();
    ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
    OverloadEngine engine;
    org.overloadcontrol.internal.bandwidth.BandwidthShaper shaper;
    JettyHarness jetty = new JettyHarness(recorder);
    try {
      engine = handler.runtime().engine();
      shaper = handler.runtime().bandwidth();
      sender.scheduleAtFixedRate(
          () -> {
            for (int i = 0; i < 1 && sent.get() < total; i++) {
              int n = sent.incrementAndGet();
              ThreadLocalRandom random = ThreadLocalRandom.current();
              // One in six clients gives up after 5–40 ms: the connection closes under a request
              // that waits, runs, or is being answered.
              long timeoutMillis = random.nextInt(6) == 0 ? 5 + random.nextInt(36) : 20_000;
              try {
                send(
                    jetty,
                    pathOf.apply(n),
                    timeoutMillis,
                    random.nextBoolean(),
                    bot.test(n),
                    statuses,
                    clientFailures,
                    answered);
              } catch (RuntimeException e) {
                // A request the client could not even start (the server is gone) is a failure
                // too; an exception must not end the periodic sender.
                clientFailures.incrementAndGet();
                answered.countDown();
              }
            }
          },
          0,
          2,
          TimeUnit.MILLISECONDS);
      // Stop the server in the middle of the run, with requests waiting and running.
      // Polled as often as requests are sent, so that the stop comes at the 250th.
      await("250 requests at the server")
          .pollInterval(Duration.ofMillis(2))
          .until(() -> recorder.seen.size() >= 250);
      jetty.server.stop();
      await("all requests sent").until(() -> sent.get() >= total);
      assertThat(answered.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      sender.shutdownNow();
      app.timer.shutdown(); // runs the answers still scheduled
      assertThat(app.timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      jetty.close();
    }

    List<GroupSnapshot> bandwidth = shaper == null ? List.of() : shaper.snapshot();
    List<Seen> all = List.copyOf(recorder.seen);
    long tagged = all.stream().filter(s -> s.tag() != null).count();
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    long arrivals = 0;
    for (var e : engine.endpoints()) {
      for (var c : e.classes()) {
        arrivals += c.arrivalCount();
        for (Outcome o : Outcome.values()) {
          outcomes.merge(o, c.outcomeCount(o), Long::sum);
        }
      }
    }
    long outcomeSum = outcomes.values().stream().mapToLong(Long::longValue).sum();
    System.out.printf(
        "exactly once: sent %d, reached the server %d, tagged %d, outcomes %s;"
            + " client saw statuses %s and %d failures (timeouts, closed connections);"
            + " bandwidth groups %s%n",
        total, all.size(), tagged, outcomes, statuses, clientFailures.get(), bandwidth);

    for (Seen s : all) {
      // A 500 is the application's failure, never a request overload control refused.
      if (s.tag() != null && FIVE_HUNDREDS.contains(s.request.getHttpURI().getPath())) {
        assertThat(s.tag().outcome())
            .as("outcome of a request answered 500")
            .isEqualTo(Outcome.FAILED);
      }
    }
    assertThat(all.size()).isLessThanOrEqualTo(total);
    assertThat(arrivals).isEqualTo(tagged);
    assertThat(outcomeSum).as("one outcome per tagged request").isEqualTo(tagged);
    for (Seen s : all) {
      RequestTag tag = s.tag();
      if (tag != null) {
        assertThat(tag.outcome()).as("outcome of %s", tag).isNotNull();
      }
      // Jetty's callback is completed exactly once, or never when the chain threw (then
      // Jetty completes it itself).
      assertThat(s.completions.get())
          .as("callback completions of %s", tag)
          .isEqualTo(s.threw ? 0 : 1);
    }
    assertThat(engine.queues().waitingCount()).as("nobody left waiting").isZero();
    assertThat(engine.queues().permitsInUse()).as("every permit back").isZero();
    for (var e : engine.queues().endpoints()) {
      assertThat(e.inUse()).isZero();
      assertThat(e.waiting()).isZero();
    }
    for (GroupSnapshot g : bandwidth) {
      assertThat(g.delayedCount()).as("nobody left delayed in %s", g.name()).isZero();
    }
    // The run exercised every path.
    assertThat(outcomes.get(Outcome.COMPLETED)).isPositive();
    assertThat(outcomes.get(Outcome.FAILED)).isPositive();
    return outcomes;
  }
}
