package org.overloadcontrol.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * One endpoint of an ordinary application on a simulated clock, driving the real {@link
 * OverloadEngine} with its default controller: the workloads beyond the shop on which a default
 * must hold (issue: "the default holds on any application").
 *
 * <ul>
 *   <li>{@link Kind#API}: a Spring-like method, 0.7 ms of CPU and a 50 ms wait (a remote call,
 *       a sleep), target 100 ms: the CPU bounds it (2,700 requests/s on 2 cores).
 *   <li>{@link Kind#WAR}: a plain servlet, 0.2 ms of CPU and a 50 ms wait, target 100 ms: the
 *       container's 200 threads bound it (4,000/s).
 *   <li>{@link Kind#CPU}: about 2 ms of CPU a request on 2 cores, target 20 ms (1,000/s).
 *   <li>{@link Kind#POOL}: 0.7 ms of CPU and a 20 ms call through a downstream pool of 8,
 *       target 100 ms (400/s).
 * </ul>
 *
 * The CPU part runs on 2 cores in arrival order (exponential lengths), the wait after it on
 * its own servers; a request holds its container thread throughout.
 * Events: a cold start (every CPU step {@code 1 + 10·e^(−t/1.5 s)} times its warm length from
 * the first request on, as a JVM that has not compiled the code yet), a 1 s stall of every
 * execution, and load steps. Arrivals are Poisson at a multiple of the capacity; a request
 * first takes one of the container's threads (waiting, invisible to the filter, in the
 * container's own queue when none is free), then meets the engine, whose waiters hold no
 * thread. A refused client leaves, or, with {@code retryAtOnce}, sends again 1 ms later (at most
 * 20 times), as {@code ab} and {@code wrk} do.
 */
final class Workloads {

  static final long MS = 1_000_000L;
  static final long SECOND = 1_000L * MS;
  static final int THREADS = 200;
  static final int CORES = 2;

  enum Kind {
    API(700_000L, 50 * MS, Integer.MAX_VALUE, 100),
    WAR(200_000L, 50 * MS, Integer.MAX_VALUE, 100),
    CPU(2 * MS, 0, 0, 20),
    POOL(700_000L, 20 * MS, 8, 100);

    final long cpu;
    final long wait;
    final int waitServers;
    final long targetMillis;

    Kind(long cpu, long wait, int waitServers, long targetMillis) {
      this.cpu = cpu;
      this.wait = wait;
      this.waitServers = waitServers;
      this.targetMillis = targetMillis;
    }

    /** Requests a second it serves warm: the least of the cores, the threads and the pool. */
    double capacity() {
      double cores = CORES * (double) SECOND / cpu;
      double threads = THREADS * (double) SECOND / (cpu + wait);
      double pool = wait == 0 ? Double.MAX_VALUE : waitServers * (double) SECOND / wait;
      return Math.min(cores, Math.min(threads, pool));
    }
  }

  /** What one second of a run measured. */
  record Second(
      int at,
      long arrived,
      long completed,
      long withinTarget,
      long refused,
      double clientP90Millis,
      double limit,
      double littleNeed) {}

  private final Kind kind;
  private final Random random;
  private final OverloadEngine engine;
  private final EndpointClass route;
  private final EventClock clock = new EventClock();
  private final ArrayDeque<Runnable> threadQueue = new ArrayDeque<>();
  private final ArrayDeque<Runnable> cpuQueue = new ArrayDeque<>();
  private final ArrayDeque<Runnable> serverQueue = new ArrayDeque<>();
  private final Map<RequestTag, Long> sentAt = new HashMap<>();
  private final List<LimitRound> rounds = new ArrayList<>();
  private final boolean retryAtOnce;
  private int threadsBusy;
  private int serversBusy;
  private int coresBusy;
  private long coldFrom = Long.MIN_VALUE;
  private long stallFrom = Long.MIN_VALUE;
  private long stallTo = Long.MIN_VALUE;
  private final long start = clock.read();
  private final Map<Integer, long[]> perSecond = new LinkedHashMap<>();
  private final Map<Integer, List<Long>> latencies = new HashMap<>();
  private final Map<Integer, double[]> limits = new HashMap<>();
  private long unfinished;

  Workloads(Kind kind, boolean retryAtOnce, long seed, Map<String, String> extra) {
    this.kind = kind;
    this.retryAtOnce = retryAtOnce;
    this.random = new Random(seed);
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("endpoints.api.target", kind.targetMillis + "ms");
    // As the adapters do: the container's threads bound the limit.
    keys.put("admission.maxLimit", Integer.toString(defaultCeiling()));
    keys.putAll(extra);
    AdmissionListener listener =
        new AdmissionListener() {
          @Override
          public void onLimitRound(LimitRound round) {
            rounds.add(round);
          }
        };
    engine =
        OverloadEngine.builder(OverloadConfig.of(keys))
            .ticker(clock)
            .scheduler(clock)
            .admissionListener(listener)
            .build();
    route = engine.routes().route("api", null);
  }

  /** The ceiling the adapters set from the container's {@value #THREADS} threads. */
  static int defaultCeiling() {
    return org.overloadcontrol.internal.config.AdmissionSettings.ceilingFor(THREADS);
  }

  /** Every execution from now on starts cold (see the class comment). */
  Workloads coldStart() {
    coldFrom = clock.read();
    return this;
  }

  /** Stalls every execution for one second, {@code afterSeconds} from now. */
  Workloads stallAfter(double afterSeconds) {
    stallFrom = clock.read() + (long) (afterSeconds * SECOND);
    stallTo = stallFrom + SECOND;
    return this;
  }

  /** Offers {@code load} × the capacity for {@code seconds}. */
  Workloads offer(double load, double seconds) {
    double rate = load * kind.capacity();
    long end = clock.read() + (long) (seconds * SECOND);
    long next = clock.read() + interArrival(rate);
    while (next < end) {
      advanceTo(next);
      send(0);
      next += interArrival(rate);
    }
    advanceTo(end);
    return this;
  }

  /** Lets every request finish. */
  Workloads drain() {
    advanceTo(clock.read() + 10 * SECOND);
    return this;
  }

  List<Second> seconds() {
    List<Second> out = new ArrayList<>();
    for (Map.Entry<Integer, long[]> e : perSecond.entrySet()) {
      long[] c = e.getValue();
      List<Long> l = latencies.getOrDefault(e.getKey(), List.of());
      double[] lim = limits.getOrDefault(e.getKey(), new double[] {Double.NaN});
      // Little's law: the concurrency that carries this second's completions at the target.
      double need = c[1] * kind.targetMillis / 1000.0;
      out.add(new Second(e.getKey(), c[0], c[1], c[2], c[3], p90(l) / (double) MS, lim[0], need));
    }
    return out;
  }

  /** The limit rounds so far. */
  List<LimitRound> rounds() {
    return rounds;
  }

  ConcurrencyGroup group() {
    return engine.concurrencyGroups().get(0);
  }

  /** Requests whose outcome the engine has not seen. */
  long unfinished() {
    return unfinished;
  }

  long targetNanos() {
    return kind.targetMillis * MS;
  }

  private static double p90(List<Long> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
    return v[(int) Math.ceil(0.9 * v.length) - 1];
  }

  private long[] counts(long at) {
    return perSecond.computeIfAbsent(second(at), k -> new long[4]);
  }

  private int second(long at) {
    return (int) ((at - start) / SECOND);
  }

  /** A client sends; {@code attempt} counts its earlier refusals. */
  private void send(int attempt) {
    long sent = clock.read();
    if (attempt == 0) {
      counts(sent)[0]++;
    }
    Runnable onThread =
        () -> {
          unfinished++;
          RequestTag tag = engine.tag(route, clock.read());
          sentAt.put(tag, sent);
          Decision d = engine.arrive(tag);
          switch (d) {
            case ADMIT -> execute(tag);
            case REJECT -> refuse(tag, attempt, Outcome.REJECTED);
            case WAIT -> {
              threadFree();
              boolean queued =
                  engine.enqueue(
                      tag,
                      new Waiter.Listener() {
                        @Override
                        public void resumed(Waiter waiter) {
                          // A resumed request takes a thread again (a dispatch).
                          schedule(clock.read(), () -> onThread(() -> execute(tag)));
                        }

                        @Override
                        public void expired(Waiter waiter) {
                          sentAt.remove(tag);
                          finish(tag, Outcome.EXPIRED, attempt, sent);
                        }
                      });
              if (!queued) {
                sentAt.remove(tag);
                finish(tag, Outcome.REJECTED, attempt, sent);
              }
            }
          }
        };
    onThread(onThread);
  }

  private void onThread(Runnable r) {
    if (threadsBusy < THREADS) {
      threadsBusy++;
      r.run();
    } else {
      threadQueue.addLast(r);
    }
  }

  private void threadFree() {
    Runnable next = threadQueue.pollFirst();
    if (next != null) {
      // The thread passes to the next request in the container's queue (as an event, so that
      // hand-overs do not nest).
      schedule(clock.read(), next);
    } else {
      threadsBusy--;
    }
  }

  private void refuse(RequestTag tag, int attempt, Outcome outcome) {
    long sent = sentAt.remove(tag);
    threadFree();
    finish(tag, outcome, attempt, sent);
  }

  private void finish(RequestTag tag, Outcome outcome, int attempt, long sent) {
    engine.settle(tag, outcome, -1);
    unfinished--;
    if (outcome != Outcome.COMPLETED) {
      counts(clock.read())[3]++;
      if (retryAtOnce && attempt < 20) {
        schedule(clock.read() + MS, () -> send(attempt + 1));
      }
    }
  }

  private void execute(RequestTag tag) {
    if (coresBusy < CORES) {
      coresBusy++;
      compute(tag);
    } else {
      cpuQueue.addLast(() -> compute(tag));
    }
  }

  /** The request holds a core for its CPU part, then waits on its servers. */
  private void compute(RequestTag tag) {
    long length = Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) * kind.cpu * cold()));
    schedule(
        stalled(clock.read() + length),
        () -> {
          Runnable next = cpuQueue.pollFirst();
          if (next != null) {
            schedule(clock.read(), next); // the core passes to the next request
          } else {
            coresBusy--;
          }
          if (kind.wait == 0) {
            done(tag);
          } else if (serversBusy < kind.waitServers) {
            serversBusy++;
            await(tag);
          } else {
            serverQueue.addLast(() -> await(tag));
          }
        });
  }

  /** The request holds one of the downstream's servers (or sleeps) until it is done. */
  private void await(RequestTag tag) {
    long length = (long) (kind.wait * (0.9 + 0.2 * random.nextDouble()));
    schedule(
        stalled(clock.read() + length),
        () -> {
          Runnable next = serverQueue.pollFirst();
          if (next != null) {
            schedule(clock.read(), next); // the server passes to the next request
          } else {
            serversBusy--;
          }
          done(tag);
        });
  }

  /** A step that would end at {@code end} ends that much after the stall when it overlaps it. */
  private long stalled(long end) {
    if (end > stallFrom && clock.read() < stallTo) {
      return end + stallTo - Math.max(clock.read(), stallFrom);
    }
    return end;
  }

  /** How many times its warm length a CPU step takes now. */
  private double cold() {
    return coldFrom == Long.MIN_VALUE
        ? 1.0
        : 1 + 10 * Math.exp(-(clock.read() - coldFrom) / (1.5 * SECOND));
  }

  private void done(RequestTag tag) {
    long sent = sentAt.remove(tag);
    long latency = clock.read() - sent;
    long[] c = counts(clock.read());
    c[1]++;
    if (latency <= targetNanos()) {
      c[2]++;
    }
    latencies.computeIfAbsent(second(clock.read()), k -> new ArrayList<>()).add(latency);
    threadFree();
    engine.settle(tag, Outcome.COMPLETED, -1);
    unfinished--;
    noteLimit();
  }

  private void noteLimit() {
    if (engine.concurrencyGroups().isEmpty()) {
      return;
    }
    double[] l = limits.computeIfAbsent(second(clock.read()), k -> new double[] {1e9});
    l[0] = Math.min(l[0], group().limit());
  }

  private long interArrival(double ratePerSecond) {
    return Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) / ratePerSecond * SECOND));
  }

  private void schedule(long at, Runnable r) {
    clock.at(at, r);
  }

  private void advanceTo(long t) {
    clock.advanceTo(t, at -> {});
  }
}
