package org.overloadcontrol.it.load;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The open-loop session workload of LIFO-Pri (Singhmar et al. 2004, §3.2.1): sessions arrive as
 * a Poisson process at a set (possibly stepped) rate, whatever the server does; each walks the
 * {@link SessionModel} from the home page with think times between pages, as one user with its
 * own cookie session, so a purchase really adds to the cart, logs in, enters shipping and
 * payment and confirms. Each request has the user's patience ({@link UserBehaviour}): a timed-out
 * request is retried with probability p up to M times; a refused request (503, 429, a redirect)
 * ends the session, or is sent once more after the server's {@code Retry-After} if the users
 * {@linkplain UserBehaviour.RefusalResponse#RETRY_ONCE retry once}, or is taken as answered and
 * the walk goes on if they {@linkplain UserBehaviour.RefusalResponse#STAY stay}; a request that
 * finally fails
 * ends the session, and the pages it would still have visited are counted as "not generated"
 * (Table 5) by walking the rest of its chain. A confirm counts as a purchase without refusal only
 * if nothing of its session was refused before it: what users who leave at the first refusal
 * buy.
 *
 * <p>No coordinated omission across sessions: arrivals are drawn in advance and a slow server
 * never delays the next arrival. Within a session the user waits for each answer, as the
 * paper's users do.
 */
public final class SessionLoadGenerator {

  /** The steps whose refusal makes the shop answer the session's confirm with 409. */
  private static final Set<ShopRequest> CHECKOUT =
      EnumSet.of(ShopRequest.CART, ShopRequest.LOGIN, ShopRequest.SHIPPING, ShopRequest.PAYMENT);

  private final ShopTransport client;
  private final SessionModel model;
  private final UserBehaviour behaviour;
  private final Supplier<EngineGauge.Reading> gauge;
  private final Map<String, String> headers;

  public SessionLoadGenerator(
      ShopTransport client,
      SessionModel model,
      UserBehaviour behaviour,
      Supplier<EngineGauge.Reading> gauge,
      Map<String, String> headers) {
    this.client = client;
    this.model = model;
    this.behaviour = behaviour;
    this.gauge = gauge;
    this.headers = Map.copyOf(headers);
  }

  /**
   * Starts sessions at {@code sessionsPerSecond} for {@code duration}, then waits up to
   * {@code drain} for the sessions under way to end, and returns what happened.
   */
  public RunResult run(
      StepSchedule sessionsPerSecond, Duration duration, Duration drain, Duration bucket, long seed)
      throws InterruptedException {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "session-timer");
              t.setDaemon(true);
              return t;
            });
    long start = System.nanoTime();
    RunRecorder recorder = new RunRecorder(start, bucket);
    AtomicLong active = new AtomicLong();
    timer.scheduleAtFixedRate(
        () -> recorder.gauge(System.nanoTime(), gauge.get()),
        0,
        bucket.toNanos(),
        TimeUnit.NANOSECONDS);
    try {
      SplittableRandom random = new SplittableRandom(seed);
      long end = start + duration.toNanos();
      long scheduled = start;
      long ids = 0;
      while (true) {
        double rate = sessionsPerSecond.valueAt((scheduled - start) / 1e9);
        scheduled += (long) (-Math.log(1.0 - random.nextDouble()) / rate * 1e9);
        if (scheduled >= end) {
          break;
        }
        parkUntil(scheduled);
        recorder.lag(System.nanoTime() - scheduled);
        new Session(++ids, random.split(), recorder, active, timer).start();
      }
      long deadline = System.nanoTime() + drain.toNanos();
      while (active.get() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      return recorder.snapshot(Duration.ofNanos(System.nanoTime() - start));
    } finally {
      timer.shutdownNow();
    }
  }

  /** One visitor: walks the chain, one request at a time. */
  private final class Session {
    private final SplittableRandom random;
    private final RunRecorder recorder;
    private final AtomicLong active;
    private final ScheduledThreadPoolExecutor timer;
    private final ShopClient.UserSession user;

    // One request at a time, but its answer comes on a client thread and the next step may
    // run on the timer's.
    /** Whether any request of this visit was refused so far. */
    private volatile boolean refused;

    /** Whether any page of this visit was served so far. */
    private volatile boolean served;

    /**
     * The first checkout step (cart, login, shipping, payment) refused in this visit, or null:
     * with users who walk on, the step that will cost them the order at confirm.
     */
    private volatile ShopRequest checkoutRefused;

    Session(
        long id,
        SplittableRandom random,
        RunRecorder recorder,
        AtomicLong active,
        ScheduledThreadPoolExecutor timer) {
      this.random = random;
      this.recorder = recorder;
      this.active = active;
      this.timer = timer;
      this.user = new ShopClient.UserSession(id, headers);
    }

    void start() {
      active.incrementAndGet();
      recorder.sessionStarted();
      send(model.start(), 1, 0);
    }

    private void send(ShopRequest type, int attempt, int refusals) {
      if (type == ShopRequest.CONFIRM && attempt == 1 && refusals == 0) {
        recorder.buyer();
      }
      recorder.generated(type, System.nanoTime());
      client.send(
          type,
          user,
          random,
          behaviour.drawTimeoutNanos(random),
          (outcome, status, latency, retryAfter) ->
              ended(type, attempt, refusals, outcome, latency, retryAfter));
    }

    private void ended(
        ShopRequest type,
        int attempt,
        int refusals,
        Outcome outcome,
        long latencyNanos,
        long retryAfterNanos) {
      long now = System.nanoTime();
      recorder.ended(type, null, outcome, latencyNanos, now);
      switch (outcome) {
        case COMPLETED -> {
          served = true;
          if (type == ShopRequest.CONFIRM && !refused) {
            recorder.purchaseWithoutRefusal(now);
          }
          proceed(type);
        }
        case TIMED_OUT -> {
          if (behaviour.retries(attempt, random)) {
            send(type, attempt + 1, refusals);
          } else {
            abandon(type, "timed out");
          }
        }
        case REJECTED -> {
          if (!refused) {
            recorder.sessionRefused(served);
          }
          refused = true;
          if (checkoutRefused == null && CHECKOUT.contains(type)) {
            checkoutRefused = type;
          }
          if (behaviour.goesOnAfterRefusal()) {
            if (type == ShopRequest.CONFIRM) {
              recorder.buyerLost("confirm refused");
            }
            proceed(type);
            return;
          }
          long delay = behaviour.retryDelayAfterRefusalNanos(refusals + 1, retryAfterNanos);
          if (delay < 0) {
            abandon(type, served ? "refused mid-session" : "refused at entry");
          } else {
            timer.schedule(() -> send(type, attempt, refusals + 1), delay, TimeUnit.NANOSECONDS);
          }
        }
        default ->
            abandon(
                type,
                checkoutRefused == null
                    ? "failed"
                    : "failed after " + checkoutRefused.endpoint() + " refused");
      }
    }

    private void proceed(ShopRequest done) {
      if (done == ShopRequest.CART) {
        // The cart addition is the first half of the step to login.
        send(ShopRequest.LOGIN, 1, 0);
        return;
      }
      Optional<ShopRequest> next = model.next(done, random);
      if (next.isEmpty()) {
        active.decrementAndGet();
        return;
      }
      ShopRequest page = next.get() == ShopRequest.LOGIN ? ShopRequest.CART : next.get();
      long think = behaviour.drawThinkNanos(random);
      timer.schedule(() -> send(page, 1, 0), think, TimeUnit.NANOSECONDS);
    }

    private void abandon(ShopRequest failed, String reason) {
      recorder.sessionAbandoned();
      if (failed == ShopRequest.CONFIRM) {
        recorder.buyerLost(reason);
      }
      ShopRequest current = failed;
      if (failed == ShopRequest.CART) {
        recorder.notGenerated(ShopRequest.LOGIN);
        current = ShopRequest.LOGIN;
      }
      for (Optional<ShopRequest> n = model.next(current, random);
          n.isPresent();
          n = model.next(n.get(), random)) {
        if (n.get() == ShopRequest.LOGIN) {
          recorder.notGenerated(ShopRequest.CART);
        } else if (n.get() == ShopRequest.CONFIRM) {
          recorder.buyer();
          recorder.buyerLost(reason);
        }
        recorder.notGenerated(n.get());
      }
      active.decrementAndGet();
    }
  }

  private static void parkUntil(long deadlineNanos) {
    long remaining;
    while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(remaining);
    }
  }
}
