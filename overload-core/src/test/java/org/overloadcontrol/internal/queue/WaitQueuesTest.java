package org.overloadcontrol.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.queue.QueueListener;

/** The LIFO-Pri discipline of Singhmar et al. 2004, Algorithm 1, on a fake clock. */
class WaitQueuesTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final List<String> resumed = new ArrayList<>();
  private final List<String> expired = new ArrayList<>();
  private final List<String> orderChanges = new ArrayList<>();
  private double cpu;
  private OverloadEngine engine;

  /** The shop's classes: Table 3 utilities, ranks by purchase step. */
  private static Map<String, String> shop(Map<String, String> extra) {
    Map<String, String> m =
        new HashMap<>(
            Map.of(
                "classes.home.utility",
                "27",
                "classes.browse.utility",
                "22",
                "classes.search.utility",
                "36",
                "classes.details.utility",
                "73",
                "classes.login.rank",
                "5",
                "classes.login.kind",
                "transaction",
                "classes.payment.rank",
                "7",
                "classes.payment.kind",
                "transaction",
                "classes.confirm.rank",
                "8",
                "classes.confirm.kind",
                "transaction"));
    m.put("classes.home.rank", "1");
    m.put("classes.browse.rank", "2");
    m.put("classes.search.rank", "3");
    m.put("classes.details.rank", "4");
    m.put("queue.permits", "1");
    m.putAll(extra);
    return m;
  }

  private void start(Map<String, String> config) {
    engine =
        OverloadEngine.builder(OverloadConfig.of(config))
            .ticker(ticker)
            .scheduler(scheduler)
            .cpuUtilisation(() -> cpu)
            .queueListener(
                new QueueListener() {
                  @Override
                  public void onOrderChange(boolean lifo, double signal, String unit) {
                    orderChanges.add(lifo ? "LIFO" : "FIFO");
                  }
                })
            .build();
  }

  /** A request of class {@code cls} at endpoint {@code cls}, labelled for the record. */
  private final Map<String, RequestTag> tags = new HashMap<>();

  private RequestTag request(String cls, String label) {
    RequestTag tag =
        engine.tag(
            engine.endpoint(cls).forClass(engine.config().requestClass(cls).orElseThrow()),
            ticker.read());
    tags.put(label, tag);
    Decision d = engine.arrive(tag);
    if (d == Decision.REJECT) {
      engine.settle(tag, Outcome.REJECTED, 0);
    } else if (d == Decision.WAIT) {
      boolean queued =
          engine.enqueue(
              tag,
              new Waiter.Listener() {
                @Override
                public void resumed(Waiter w) {
                  resumed.add(label);
                }

                @Override
                public void expired(Waiter w) {
                  expired.add(label);
                  engine.settle(tag, Outcome.EXPIRED, 0);
                }
              });
      if (!queued) {
        engine.settle(tag, Outcome.REJECTED, 0);
      }
    }
    return tag;
  }

  @Test
  void aReleaseNeverWaitsForTheQueuesLockAndItsHandOverIsNotLost() throws Exception {
    start(shop(Map.of()));
    RequestTag running = request("home", "running");
    request("home", "waiter");
    assertThat(engine.queues().waitingCount()).isEqualTo(1);
    java.lang.reflect.Field field = WaitQueues.class.getDeclaredField("lock");
    field.setAccessible(true);
    java.util.concurrent.locks.ReentrantLock lock =
        (java.util.concurrent.locks.ReentrantLock) field.get(engine.queues());
    java.lang.reflect.Method unlock = WaitQueues.class.getDeclaredMethod("unlock");
    unlock.setAccessible(true);

    lock.lock(); // another request holds the lock (an expiry, an enqueue)
    Thread releaser = new Thread(() -> engine.settle(running, Outcome.COMPLETED, 0));
    try {
      releaser.start();
      releaser.join(10_000);
      assertThat(releaser.isAlive()).as("the release waited for the lock").isFalse();
      assertThat(resumed).isEmpty();
    } finally {
      unlock.invoke(engine.queues()); // the holder leaves, and drains what was asked
      releaser.join();
    }
    assertThat(resumed).containsExactly("waiter");
    assertThat(tags.get("waiter").holdsPermit()).isTrue();
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void transactionsFirstLaterStepsFirstThenUtilityTimesLength() {
    start(shop(Map.of()));
    RequestTag running = request("home", "running");
    assertThat(running.holdsPermit()).isTrue();
    List<RequestTag> all = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      all.add(request("home", "home" + i));
    }
    all.add(request("details", "details0"));
    all.add(request("search", "search0"));
    all.add(request("search", "search1"));
    all.add(request("login", "login0"));
    all.add(request("confirm", "confirm0"));
    all.add(request("payment", "payment0"));
    all.add(request("login", "login1"));
    assertThat(resumed).isEmpty();
    assertThat(engine.queues().waitingCount()).isEqualTo(12);

    // Each completion frees the one permit; whoever got it runs and completes next.
    RequestTag current = running;
    for (int i = 0; i < 12; i++) {
      engine.settle(current, Outcome.COMPLETED, 0);
      assertThat(resumed).hasSize(i + 1);
      current = tags.get(resumed.get(i));
      assertThat(current.holdsPermit()).isTrue();
    }
    // Transactions: confirm > payment > login, FIFO within login. Browsing, U×N: home 5×27=135
    // beats details 73 and search 2×36=72; then home 4×27=108, home 3×27=81, details 73,
    // search 72, home 2×27=54, search 36, home 27.
    assertThat(resumed)
        .containsExactly(
            "confirm0",
            "payment0",
            "login0",
            "login1",
            "home0",
            "home1",
            "home2",
            "details0",
            "search0",
            "home3",
            "search1",
            "home4");
    engine.settle(current, Outcome.COMPLETED, 0);
    assertThat(engine.queues().permitsInUse()).isZero();
    assertThat(engine.queues().waitingCount()).isZero();
  }

  @Test
  void browsingQueuesGoLifoUnderSustainedQueueingDelayAndBackWithHysteresis() {
    start(
        shop(
            Map.of(
                "queue.overload.enterDelay",
                "200ms",
                "queue.overload.exitDelay",
                "50ms",
                "queue.overload.window",
                "1s")));
    request("home", "running");
    assertThat(engine.queues().lifo()).isFalse();
    request("home", "a");
    request("home", "b");
    request("home", "c");
    // Nobody leaves for a whole window while three wait: the oldest waited a window: LIFO.
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    assertThat(orderChanges).containsExactly("LIFO");
    engine.settle(tags.get("running"), Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("c"); // newest first
    // Served newest first, d waits only 100 ms, but a and b still wait since the start: the
    // oldest waiter's age, not the leavers' short waits, keeps the queues LIFO.
    request("home", "d");
    ticker.advance(Duration.ofMillis(100));
    engine.settle(tags.get("c"), Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("c", "d");
    ticker.advance(Duration.ofMillis(950));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    request("home", "e");
    ticker.advance(Duration.ofMillis(10));
    engine.settle(tags.get("d"), Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("c", "d", "e");
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    assertThat(orderChanges).containsExactly("LIFO");
    // The backlog drains (newest first). The window in which a and b left saw them wait
    // three seconds, so it holds LIFO; after three quiet windows (the dwell): FIFO.
    engine.settle(tags.get("e"), Outcome.COMPLETED, 0);
    engine.settle(tags.get("b"), Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("c", "d", "e", "b", "a");
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    for (int quiet = 0; quiet < 3; quiet++) {
      assertThat(orderChanges).containsExactly("LIFO");
      ticker.advance(Duration.ofMillis(1000));
      scheduler.runDue();
    }
    assertThat(orderChanges).containsExactly("LIFO", "FIFO");
    assertThat(engine.queues().lifo()).isFalse();
    engine.settle(tags.get("a"), Outcome.COMPLETED, 0);
    request("home", "f");
    request("home", "g");
    request("home", "h");
    engine.settle(tags.get("f"), Outcome.COMPLETED, 0);
    assertThat(resumed).endsWith("g"); // oldest first again
  }

  @Test
  void cpuSignalUsesThePapersThresholds() {
    start(shop(Map.of("queue.overload.signal", "cpu")));
    cpu = 0.995;
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    cpu = 0.97; // between 0.95 and 0.99: stays
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    cpu = 0.90; // below 0.95 for three windows (the dwell): FIFO
    for (int quiet = 0; quiet < 3; quiet++) {
      assertThat(engine.queues().lifo()).isTrue();
      ticker.advance(Duration.ofSeconds(1));
      scheduler.runDue();
    }
    assertThat(engine.queues().lifo()).isFalse();
    assertThat(orderChanges).containsExactly("LIFO", "FIFO");
  }

  /** LIFO after a window in which nobody left although three waited a whole window. */
  private void goLifo(Map<String, String> extra) {
    Map<String, String> keys =
        new HashMap<>(
            Map.of(
                "queue.overload.enterDelay",
                "200ms",
                "queue.overload.exitDelay",
                "50ms",
                "queue.overload.window",
                "1s"));
    keys.putAll(extra);
    start(shop(keys));
    request("home", "running");
    request("home", "a");
    request("home", "b");
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue();
    assertThat(orderChanges).containsExactly("LIFO");
  }

  @Test
  void lifoHoldsThroughAWindowThatEndsJustAfterItsBacklogWasServed() {
    goLifo(Map.of("queue.overload.dwell", "1"));
    // The backlog stands for most of the next window and is served just before it closes:
    // at the close nobody waits, but a waited almost two seconds in it.
    ticker.advance(Duration.ofMillis(900));
    engine.settle(tags.get("running"), Outcome.COMPLETED, 0);
    engine.settle(tags.get("b"), Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("b", "a");
    ticker.advance(Duration.ofMillis(100));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isTrue();
    assertThat(orderChanges).containsExactly("LIFO");
  }

  @Test
  void lifoOutlastsAQuietWindowBetweenTwoSpikes() {
    goLifo(Map.of());
    engine.settle(tags.get("running"), Outcome.COMPLETED, 0);
    engine.settle(tags.get("b"), Outcome.COMPLETED, 0);
    engine.settle(tags.get("a"), Outcome.COMPLETED, 0);
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue(); // a and b left having waited a window: not quiet
    ticker.advance(Duration.ofMillis(1000));
    scheduler.runDue(); // quiet: the first of three
    assertThat(engine.queues().lifo()).isTrue();
    // The next spike finds the queues still LIFO: its newest arrival is served first.
    request("home", "running2");
    request("home", "c");
    request("home", "d");
    engine.settle(tags.get("running2"), Outcome.COMPLETED, 0);
    assertThat(resumed).endsWith("d");
    assertThat(orderChanges).containsExactly("LIFO");
  }

  @Test
  void fixedOrdersIgnoreTheSignal() {
    start(shop(Map.of("queue.order", "fifo")));
    request("home", "running");
    request("home", "a");
    request("home", "b");
    ticker.advance(Duration.ofSeconds(5));
    scheduler.runDue();
    assertThat(engine.queues().lifo()).isFalse();
    start(shop(Map.of("queue.order", "lifo")));
    assertThat(engine.queues().lifo()).isTrue();
  }

  @Test
  void fullQueueRefusesTheNewcomer() {
    start(shop(Map.of("queue.classes.home.capacity", "2")));
    request("home", "running");
    RequestTag a = request("home", "a");
    RequestTag b = request("home", "b");
    RequestTag c = request("home", "c");
    assertThat(a.outcome()).isNull();
    assertThat(b.outcome()).isNull();
    assertThat(c.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(c.reason()).isEqualTo(RejectionReason.QUEUE_FULL);
  }

  @Test
  void defaultCapacitiesAreThePapers() {
    start(shop(Map.of()));
    QueueSettings s = engine.queueSettings();
    assertThat(s.capacity(engine.config().requestClass("home").orElseThrow())).isEqualTo(50);
    assertThat(s.capacity(engine.config().requestClass("login").orElseThrow())).isEqualTo(25);
  }

  @Test
  void waitersExpireAtTheirDeadlineAndAreNotResumedAfterwards() {
    start(shop(Map.of("queue.maxWait", "2s", "queue.classes.confirm.maxWait", "5s")));
    RequestTag running = request("home", "running");
    RequestTag a = request("home", "a");
    RequestTag c = request("confirm", "c");
    ticker.advance(Duration.ofMillis(1999));
    scheduler.runDue();
    assertThat(expired).isEmpty();
    ticker.advance(Duration.ofMillis(1));
    scheduler.runDue();
    assertThat(expired).containsExactly("a");
    assertThat(a.outcome()).isEqualTo(Outcome.EXPIRED);
    assertThat(a.waited()).isEqualTo(Duration.ofSeconds(2));
    assertThat(engine.abandon(a)).isFalse(); // already out of its queue
    engine.settle(running, Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("c");
    assertThat(c.holdsPermit()).isTrue();
    assertThat(c.waited()).isEqualTo(Duration.ofSeconds(2));
    ticker.advance(Duration.ofSeconds(10));
    scheduler.runDue();
    assertThat(expired).containsExactly("a"); // c's timer was cancelled
    assertThat(scheduler.pendingOneShots()).isZero();
  }

  @Test
  void abandonedWaiterLeavesItsQueueOnce() {
    start(shop(Map.of()));
    RequestTag running = request("home", "running");
    RequestTag a = request("home", "a");
    assertThat(engine.abandon(a)).isTrue();
    assertThat(engine.abandon(a)).isFalse();
    engine.settle(a, Outcome.EXPIRED, 0);
    assertThat(engine.queues().waitingCount()).isZero();
    assertThat(a.route().abandonedCount()).isEqualTo(1);
    engine.settle(running, Outcome.COMPLETED, 0);
    assertThat(resumed).isEmpty();
    ticker.advance(Duration.ofSeconds(30));
    scheduler.runDue();
    assertThat(expired).isEmpty();
  }

  @Test
  void shutdownExpiresEveryWaiterAndRefusesNewcomers() {
    start(shop(Map.of()));
    RequestTag running = request("home", "running");
    request("home", "a");
    request("login", "b");
    engine.shutdown();
    assertThat(expired).containsExactlyInAnyOrder("a", "b");
    RequestTag late = request("home", "late");
    assertThat(late.outcome()).isEqualTo(Outcome.REJECTED);
    engine.settle(running, Outcome.COMPLETED, 0);
    assertThat(engine.queues().permitsInUse()).isZero();
  }

  @Test
  void singleQueueLayoutServesAllClassesInOneOrder() {
    start(
        shop(Map.of("queue.layout", "single", "queue.order", "lifo", "queue.singleCapacity", "3")));
    RequestTag running = request("home", "running");
    request("confirm", "c");
    request("home", "h");
    request("search", "s");
    RequestTag over = request("login", "l");
    assertThat(over.outcome()).isEqualTo(Outcome.REJECTED);
    engine.settle(running, Outcome.COMPLETED, 0);
    assertThat(resumed).containsExactly("s"); // no priority: newest first
  }

  @Test
  void perEndpointPermitsLetOtherEndpointsPass() {
    start(shop(Map.of("queue.permits", "4", "queue.endpoints.search.permits", "1")));
    RequestTag s1 = request("search", "s1");
    RequestTag s2 = request("search", "s2");
    assertThat(s1.holdsPermit()).isTrue();
    assertThat(s2.holdsPermit()).isFalse();
    // Another endpoint is not held up by search's limit, even with search waiting.
    RequestTag h = request("home", "h");
    assertThat(h.holdsPermit() || resumed.contains("h")).isTrue();
    engine.settle(s1, Outcome.COMPLETED, 0);
    assertThat(resumed).contains("s2");
  }

  @Test
  void adaptivePermitsGrowWithTheQueueAndShrinkWhenIdle() {
    start(
        shop(
            Map.of(
                "queue.permits",
                "10",
                "queue.endpoints.search.adaptive",
                "true",
                "queue.endpoints.search.minPermits",
                "1",
                "queue.endpoints.search.maxPermits",
                "3",
                "queue.endpoints.search.queueThreshold",
                "2",
                "queue.endpoints.search.samplePeriod",
                "2s",
                "queue.endpoints.search.idleTime",
                "5s")));
    List<RequestTag> tags = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      tags.add(request("search", "s" + i));
    }
    EndpointPermits permits = engine.endpoint("search").permits();
    assertThat(permits.limit()).isEqualTo(1);
    assertThat(permits.waiting()).isEqualTo(4);
    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(permits.limit()).isEqualTo(2);
    assertThat(resumed).hasSize(1); // the new permit went to a waiter
    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(permits.limit()).isEqualTo(3); // 3 still wait > threshold 2
    ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(permits.limit()).isEqualTo(3); // maximum
    for (RequestTag t : tags) {
      engine.settle(t, Outcome.COMPLETED, 0);
    }
    // Now idle: a permit goes after 5 s free, down to the minimum.
    for (int i = 0; i < 40; i++) {
      ticker.advance(Duration.ofMillis(500));
      scheduler.runDue();
    }
    assertThat(permits.limit()).isEqualTo(1);
  }

  @Test
  void queueThresholdAdmissionCutsExponentiallyAndGrowsByAStep() {
    start(
        shop(
            Map.of(
                "endpoints.search.target",
                "100ms",
                "queue.endpoints.search.admission",
                "queue-threshold",
                "queue.endpoints.search.threshold.initial",
                "8",
                "queue.permits",
                "100")));
    List<RequestTag> admitted = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      RequestTag t = request("search", "s" + i);
      if (t.outcome() == null) {
        admitted.add(t);
      }
    }
    assertThat(admitted).hasSize(8); // threshold 8 in flight
    ticker.advance(Duration.ofMillis(500));
    for (RequestTag t : admitted) {
      engine.settle(t, Outcome.COMPLETED, 0); // 500 ms > 100 ms target
    }
    ticker.advance(Duration.ofMillis(600));
    scheduler.runDue();
    assertThat(engine.endpoint("search").queueThreshold().threshold()).isEqualTo(4);
    RequestTag fast = request("search", "fast");
    engine.settle(fast, Outcome.COMPLETED, 0);
    ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
    assertThat(engine.endpoint("search").queueThreshold().threshold()).isEqualTo(5);
  }
}
