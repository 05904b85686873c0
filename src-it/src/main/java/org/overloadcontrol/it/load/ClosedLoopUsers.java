package org.overloadcontrol.it.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;

/**
 * A closed-loop user population, as Welsh & Culler 2003 §4.1 load Arashi: each user sends one
 * request, waits for the answer, thinks, and sends the next, walking the shop's
 * {@link SessionModel} and starting a new visit at the home page when it leaves. A user whose
 * request is rejected waits {@link UserBehaviour#rejectionPause()} (the paper: 5 s) and starts
 * a new visit. Users come in {@link Group}s, each with its own headers (e.g. a user-class
 * header, §4.6) and a number of users that may change in steps (the load spike of §4.4); a user
 * beyond its group's current number stops after its request under way.
 */
public final class ClosedLoopUsers {

  /** Users that share headers and a schedule of how many of them are active. */
  public record Group(String name, StepSchedule users, Map<String, String> headers) {
    public Group {
      headers = Map.copyOf(headers);
    }
  }

  private final ShopTransport client;
  private final SessionModel model;
  private final UserBehaviour behaviour;
  private final Supplier<EngineGauge.Reading> gauge;

  public ClosedLoopUsers(
      ShopTransport client,
      SessionModel model,
      UserBehaviour behaviour,
      Supplier<EngineGauge.Reading> gauge) {
    this.client = client;
    this.model = model;
    this.behaviour = behaviour;
    this.gauge = gauge;
  }

  /** Runs the groups for {@code duration}; requests under way at the end are left out. */
  public RunResult run(List<Group> groups, Duration duration, Duration bucket, long seed)
      throws InterruptedException {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "users-timer");
              t.setDaemon(true);
              return t;
            });
    long start = System.nanoTime();
    RunRecorder recorder = new RunRecorder(start, bucket);
    SplittableRandom master = new SplittableRandom(seed);
    Population[] populations = new Population[groups.size()];
    for (int g = 0; g < groups.size(); g++) {
      populations[g] = new Population(groups.get(g), recorder, timer, start, g);
    }
    timer.scheduleAtFixedRate(
        () -> recorder.gauge(System.nanoTime(), gauge.get()),
        0,
        bucket.toNanos(),
        TimeUnit.NANOSECONDS);
    try {
      long end = start + duration.toNanos();
      while (System.nanoTime() < end) {
        double t = (System.nanoTime() - start) / 1e9;
        for (Population p : populations) {
          p.adjust(t, master);
        }
        Thread.sleep(50);
      }
      for (Population p : populations) {
        p.stopped = true;
      }
      return recorder.snapshot(Duration.ofNanos(System.nanoTime() - start));
    } finally {
      timer.shutdownNow();
    }
  }

  /** The users of one group. */
  private final class Population {
    final Group group;
    final RunRecorder recorder;
    final ScheduledThreadPoolExecutor timer;
    final long start;
    final int groupIndex;
    final AtomicIntegerArray alive;
    volatile int level;
    volatile boolean stopped;

    Population(
        Group group,
        RunRecorder recorder,
        ScheduledThreadPoolExecutor timer,
        long start,
        int groupIndex) {
      this.group = group;
      this.recorder = recorder;
      this.timer = timer;
      this.start = start;
      this.groupIndex = groupIndex;
      this.alive = new AtomicIntegerArray((int) Math.ceil(group.users().max()));
    }

    void adjust(double seconds, SplittableRandom master) {
      level = (int) Math.round(group.users().valueAt(seconds));
      for (int i = 0; i < level; i++) {
        // The CAS keeps a user that is still finishing its last request from being doubled.
        if (alive.compareAndSet(i, 0, 1)) {
          long id = (long) groupIndex << 32 | i;
          new User(i, new ShopClient.UserSession(id, group.headers()), master.split()).visit();
        }
      }
    }

    /** One user: one request at a time. */
    final class User {
      final int index;
      final ShopClient.UserSession session;
      final SplittableRandom random;

      User(int index, ShopClient.UserSession session, SplittableRandom random) {
        this.index = index;
        this.session = session;
        this.random = random;
      }

      void visit() {
        session.reset();
        recorder.sessionStarted();
        send(model.start());
      }

      void send(ShopRequest type) {
        if (stopped || index >= level) {
          alive.set(index, 0);
          return;
        }
        recorder.generated(type, System.nanoTime());
        client.send(
            type,
            session,
            random,
            behaviour.drawTimeoutNanos(random),
            (outcome, status, latency, retryAfter) -> ended(type, outcome, latency));
      }

      void ended(ShopRequest type, Outcome outcome, long latencyNanos) {
        if (stopped) {
          return;
        }
        long now = System.nanoTime();
        recorder.ended(type, group.name(), outcome, latencyNanos, now);
        switch (outcome) {
          case COMPLETED -> {
            if (type == ShopRequest.CONFIRM) {
              // A refused visit starts again at the home page, so a confirm is always reached
              // without a refusal in its visit.
              recorder.purchaseWithoutRefusal(now);
            }
            if (type == ShopRequest.CART) {
              send(ShopRequest.LOGIN);
              return;
            }
            Optional<ShopRequest> next = model.next(type, random);
            long think = behaviour.drawThinkNanos(random);
            if (next.isEmpty()) {
              later(this::visit, think);
            } else {
              ShopRequest page = next.get() == ShopRequest.LOGIN ? ShopRequest.CART : next.get();
              later(() -> send(page), think);
            }
          }
          case REJECTED -> later(this::visit, behaviour.rejectionPause().toNanos());
          default -> later(this::visit, behaviour.drawThinkNanos(random));
        }
      }

      private void later(Runnable step, long delayNanos) {
        Runnable guarded =
            () -> {
              if (stopped || index >= level) {
                alive.set(index, 0);
              } else {
                step.run();
              }
            };
        timer.schedule(guarded, delayNanos, TimeUnit.NANOSECONDS);
      }
    }
  }
}
