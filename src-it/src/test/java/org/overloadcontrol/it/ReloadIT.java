package org.overloadcontrol.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.ControlledEndpoint;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.it.support.ContainerKind;
import org.overloadcontrol.it.support.Deployment;
import org.overloadcontrol.it.support.ExplodedWebApp;
import org.overloadcontrol.it.support.FilterEngine;
import org.overloadcontrol.it.support.SleepServlet;
import org.overloadcontrol.it.support.WebContainer;

/**
 * Issue 36 in real containers: the filter reloads its YAML file on disk under steady load, all
 * or nothing. A lowered target sheds within a controller window; a bad file is refused with
 * the message naming its key while the running settings keep shedding; a new virtual-queue path
 * queues without a restart; the waiters of an endpoint taken out of the file finish or expire
 * once. Every request sent gets one answer and is counted once by the engine that took it, and
 * nothing is left waiting or holding a permit.
 */
class ReloadIT {

  @TempDir static Path apps;
  private static HttpClient client;

  @BeforeAll
  static void startClient() throws Exception {
    client = new HttpClient();
    client.setMaxConnectionsPerDestination(512);
    client.setFollowRedirects(false);
    client.start();
  }

  @AfterAll
  static void stopClient() throws Exception {
    client.stop();
  }

  /** The application: {@code /work} works 50 ms, {@code /slow} 3 s, {@code /vq} 5 ms. */
  private static Path app(Path yaml, String name) throws Exception {
    return new ExplodedWebApp()
        .withOverloadFilter(Map.of("configFile", yaml.toString()))
        .withServlet("work", SleepServlet.class, Map.of("serviceTimeMillis", "50"), "/work")
        .withServlet("slow", SleepServlet.class, Map.of("serviceTimeMillis", "3000"), "/slow")
        .withServlet("vq", SleepServlet.class, Map.of("serviceTimeMillis", "5"), "/vq")
        .writeUnder(apps, name);
  }

  /** Writes the operator's file with a modification time the filter's check has not seen. */
  private static void write(Path yaml, String text) throws Exception {
    Files.writeString(yaml, text);
    Files.setLastModifiedTime(yaml, FileTime.fromMillis(System.currentTimeMillis() + 1_000));
  }

  private static OverloadEngine engine(WebContainer c) {
    return FilterEngine.of(c.servletContext());
  }

  private static String status(WebContainer c) {
    return ((Observability) c.servletContext().getAttribute(Observability.ATTRIBUTE)).statusJson();
  }

  /** Waits for what the container's threads do; polled often, as one wait below is timed. */
  static ConditionFactory await(String what) {
    return Awaitility.await(what).atMost(Duration.ofSeconds(15)).pollInterval(POLL);
  }

  private static final Duration POLL = Duration.ofMillis(20);

  static void await(String what, BooleanSupplier condition) {
    await(what).until(condition::getAsBoolean);
  }

  /** Requests at a steady rate, each answer counted by status; one answer per request. */
  static final class SteadyLoad implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();

    SteadyLoad(URI target, int perSecond) {
      this(client, target, perSecond);
    }

    SteadyLoad(HttpClient client, URI target, int perSecond) {
      timer.scheduleAtFixedRate(
          () -> {
            sent.incrementAndGet();
            client
                .newRequest(target)
                .timeout(20, TimeUnit.SECONDS)
                .send(
                    result -> {
                      if (result.isFailed()) {
                        failed.incrementAndGet();
                      } else {
                        statuses
                            .computeIfAbsent(
                                result.getResponse().getStatus(), s -> new AtomicInteger())
                            .incrementAndGet();
                      }
                    });
          },
          0,
          1_000_000 / perSecond,
          TimeUnit.MICROSECONDS);
    }

    int sent() {
      return sent.get();
    }

    int failed() {
      return failed.get();
    }

    int count(int status) {
      AtomicInteger n = statuses.get(status);
      return n == null ? 0 : n.get();
    }

    int answered() {
      return statuses.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** Stops sending and waits (bounded) until every request sent has its answer. */
    @Override
    public void close() {
      timer.shutdownNow();
      await("every answer", () -> answered() + failed.get() == sent.get());
    }

    @Override
    public String toString() {
      return "sent " + sent + ", failed " + failed + ", statuses " + statuses;
    }
  }

  /** Arrivals and outcomes over every endpoint and class of {@code engine}. */
  static long[] counts(OverloadEngine engine) {
    long arrivals = 0;
    long outcomes = 0;
    for (ControlledEndpoint e : engine.endpoints()) {
      for (EndpointClass c : e.classes()) {
        arrivals += c.arrivalCount();
        for (Outcome o : Outcome.values()) {
          outcomes += c.outcomeCount(o);
        }
      }
    }
    return new long[] {arrivals, outcomes};
  }

  /** Each request counted once by its engine; nothing left waiting or holding a permit. */
  static long settled(OverloadEngine engine) throws InterruptedException {
    await("outcomes for every arrival", () -> counts(engine)[0] == counts(engine)[1]);
    if (engine.queues() != null) {
      assertThat(engine.queues().waitingCount()).as("waiting").isZero();
    }
    for (ConcurrencyGroup g : engine.concurrencyGroups()) {
      assertThat(g.inFlight()).as("permits held in " + g.name()).isZero();
    }
    return counts(engine)[0];
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  @SuppressWarnings("try") // the load is closed mid-test, to count its answers
  void aLoweredTargetShedsABadFileIsRefusedAndEveryRequestIsCountedOnce(ContainerKind kind)
      throws Exception {
    Path yaml = apps.resolve(kind + "-target.yaml");
    // A limit of at most 4: 60/s of 50 ms keep about 3 running.
    String limit = "admission:\n  maxLimit: 4\n";
    write(yaml, limit + "endpoints:\n  work:\n    target: 2s\n");
    try (WebContainer c = kind.start(Deployment.of(app(yaml, kind + "-target")))) {
      URI work = c.baseUri().resolve("work");
      List<OverloadEngine> engines = new ArrayList<>();
      engines.add(engine(c));
      int sent;
      try (SteadyLoad load = new SteadyLoad(work, 60)) {
        await("nothing shed under a 2 s target")
            .during(Duration.ofSeconds(2))
            .atMost(Duration.ofSeconds(3))
            .untilAsserted(
                () ->
                    assertThat(load.count(kind.refusalStatus()))
                        .as("nothing shed under a 2 s target: " + load)
                        .isZero());

        // (a) 20 ms, under the 50 ms the page takes: the next window's limit cut sheds.
        write(yaml, limit + "endpoints:\n  work:\n    target: 20ms\n");
        await("version 2", () -> engine(c) != engines.get(0));
        engines.add(engine(c));
        assertThat(status(c)).contains("\"configVersion\":2");
        // Within a window (20 samples at 60/s, about a third of a second): the limit is cut.
        long swapped = System.nanoTime();
        await("the limit cut", () -> engines.get(1).concurrencyGroups().get(0).limit() < 4);
        System.out.printf(
            Locale.ROOT,
            "[%s] limit cut %.0f ms after the swap%n",
            kind,
            (System.nanoTime() - swapped) / 1e6);
        assertThat(System.nanoTime() - swapped).isLessThan(TimeUnit.SECONDS.toNanos(1));
        int shedBefore = load.count(kind.refusalStatus());
        await("shed after the lower target")
            .atMost(Duration.ofMillis(1_500))
            .untilAsserted(
                () ->
                    assertThat(load.count(kind.refusalStatus()))
                        .as("shed after the lower target: " + load)
                        .isGreaterThan(shedBefore));

        // (b) a bad file: refused, naming its key; the running 20 ms keeps shedding.
        write(yaml, limit + "endpoints:\n  work:\n    target: soon\n");
        await("the refusal", () -> status(c).contains("\"result\":\"refused\""));
        assertThat(status(c))
            .contains("\"configVersion\":2")
            .contains("endpoints.work.target")
            .contains("soon")
            .contains(yaml.toString());
        assertThat(engine(c)).isSameAs(engines.get(1));
        int shedAtRefusal = load.count(kind.refusalStatus());
        await("still shedding")
            .atMost(Duration.ofMillis(1_500))
            .untilAsserted(
                () ->
                    assertThat(load.count(kind.refusalStatus()))
                        .as("still shedding: " + load)
                        .isGreaterThan(shedAtRefusal));
        load.close();
        System.out.printf(Locale.ROOT, "[%s] reload under load: %s%n", kind, load);
        assertThat(load.failed.get()).as("requests without an answer").isZero();
        sent = load.sent.get();
        assertThat(load.count(200) + load.count(kind.refusalStatus())).isEqualTo(sent);
      }
      long counted = 0;
      for (OverloadEngine e : engines) {
        counted += settled(e);
      }
      assertThat(counted).as("requests counted over both engines").isEqualTo(sent);
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void aNewVirtualQueuePathQueuesWithoutARestart(ContainerKind kind) throws Exception {
    Path yaml = apps.resolve(kind + "-vq.yaml");
    write(yaml, "endpoints:\n  work:\n    target: 2s\n");
    try (WebContainer c = kind.start(Deployment.of(app(yaml, kind + "-vq")))) {
      URI vq = c.baseUri().resolve("vq");
      ContentResponse before = client.newRequest(vq).timeout(10, TimeUnit.SECONDS).send();
      assertThat(before.getStatus()).isEqualTo(200);
      assertThat(before.getContentAsString()).isEqualTo("ok");
      OverloadEngine first = engine(c);

      write(
          yaml,
          "endpoints:\n  work:\n    target: 2s\n"
              + "virtualQueue:\n  enabled: true\n  paths: /vq\n  capacity: 1\n  maxWait: 1h\n");
      await("version 2", () -> engine(c) != first);

      int reached = 0;
      long firstSecond = System.currentTimeMillis() / 1000;
      for (int i = 0; i < 5; i++) {
        ContentResponse r = client.newRequest(vq).timeout(10, TimeUnit.SECONDS).send();
        if (r.getStatus() == 200 && r.getContentAsString().equals("ok")) {
          reached++;
        }
      }
      long seconds = System.currentTimeMillis() / 1000 - firstSecond + 1;
      // Each second's one slot may let one in (the sends can straddle a second); the others
      // are told to wait.
      assertThat(reached)
          .as("requests that reached the page without a token, over %d seconds", seconds)
          .isLessThanOrEqualTo((int) Math.min(seconds, 4));
      assertThat(status(c)).contains("\"virtualQueue\":{");
      settled(first);
      settled(engine(c));
    }
  }

  @ParameterizedTest
  @EnumSource(ContainerKind.class)
  void theWaitersOfAnEndpointTakenOutOfTheFileFinishOrExpireOnce(ContainerKind kind)
      throws Exception {
    Path yaml = apps.resolve(kind + "-removed.yaml");
    // One request of /slow at a time (3 s each); the rest wait up to 0.7 × 5 s.
    write(
        yaml,
        "admission:\n  groups:\n    slow:\n      endpoints: slow\n      maxLimit: 1\n"
            + "endpoints:\n  slow:\n    target: 5s\n  work:\n    target: 2s\n");
    try (WebContainer c = kind.start(Deployment.of(app(yaml, kind + "-removed")))) {
      URI slow = c.baseUri().resolve("slow");
      OverloadEngine first = engine(c);
      List<CompletableFuture<Integer>> answers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        client
            .newRequest(slow)
            .timeout(20, TimeUnit.SECONDS)
            .send(
                r -> {
                  if (r.isFailed()) {
                    status.completeExceptionally(r.getFailure());
                  } else {
                    status.complete(r.getResponse().getStatus());
                  }
                });
        answers.add(status);
      }
      await("three waiting", () -> first.queues() != null && first.queues().waitingCount() == 3);

      write(yaml, "endpoints:\n  work:\n    target: 2s\n");
      await("version 2", () -> engine(c) != first);
      assertThat(first.queues().waitingCount()).as("the waiters stay where they were").isEqualTo(3);

      Map<Integer, Integer> statuses = new HashMap<>();
      for (CompletableFuture<Integer> a : answers) {
        statuses.merge(a.get(20, TimeUnit.SECONDS), 1, Integer::sum);
      }
      System.out.printf(Locale.ROOT, "[%s] waiters of a removed endpoint: %s%n", kind, statuses);
      assertThat(statuses.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(4);
      assertThat(statuses.keySet()).isSubsetOf(200, kind.refusalStatus());
      assertThat(settled(first)).as("the old engine counted each once").isEqualTo(4);
      settled(engine(c));
    }
  }
}
