package org.overloadcontrol.internal.admission;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.ControllerRound;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A deterministic model of the two-class experiment (Welsh &amp; Culler 2003 Figures 14/15, the
 * shop's {@code DifferentiationExperiment}) for the rate controller: eight endpoints, each its
 * own {@link EndpointAdmissionController} with classes {@code low} and {@code high}, in front
 * of one FIFO database connection of 40 requests/s (exponential service, mean 25 ms). Closed
 * loop: 60 low users throughout, 60 high users from {@code highFrom} to {@code highTo}; each
 * thinks 2 ms (exponential) between requests, picks a page by the shop's traffic shares, and
 * after a refusal pauses 500 ms. The experiment's settings: target 100 ms, round timeout
 * 100 ms, initial rate 20/s per endpoint and class, bucket depth 10. The ticker jumps from
 * event to event; a minute runs in milliseconds.
 */
final class TwoClassSpike {

  static final long MS = 1_000_000L;
  static final long SECOND = 1_000 * MS;
  static final long TARGET = 100 * MS;
  static final ClassDefinition LOW = new ClassDefinition("low", 10, RequestKind.BROWSING, 1);
  static final ClassDefinition HIGH = new ClassDefinition("high", 20, RequestKind.BROWSING, 1);
  private static final double[] SHARES = {0.30, 0.20, 0.15, 0.12, 0.08, 0.06, 0.05, 0.04};
  private static final int USERS = 60;
  private static final long MEAN_SERVICE = 25 * MS;
  private static final long THINK = 2 * MS;
  private static final long PAUSE = 500 * MS;

  /** One request that ran: its class (0 low, 1 high), arrival and response time. */
  record Served(int level, long arrivalNanos, long responseNanos) {}

  private final FakeTicker ticker = new FakeTicker();
  private final Random random;
  private final EndpointAdmissionController[] endpoints = new EndpointAdmissionController[8];
  private final PriorityQueue<long[]> events =
      new PriorityQueue<>(
          (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
  private final ArrayDeque<long[]> database = new ArrayDeque<>();
  private final long origin = ticker.read();
  private boolean busy;
  private long sequence;
  final List<Served> served = new ArrayList<>();
  final List<ControllerRound> rounds = new ArrayList<>();

  /** Per class and 100 ms window: arrivals, admissions, completions. */
  private final int[][] offered = new int[2][MAX_WINDOWS];

  private final int[][] admitted = new int[2][MAX_WINDOWS];
  private final int[][] completed = new int[2][MAX_WINDOWS];

  /** Per class and 100 ms window: refusals, counted at their arrival (their 503 is at once). */
  private final int[][] refused = new int[2][MAX_WINDOWS];

  private static final int MAX_WINDOWS = 1200;
  private final RateGroup group;

  /** Per class at each window's end: the summed rates and the requests in the database. */
  private final double[][] rateAtEnd = new double[2][MAX_WINDOWS];

  private final int[][] inFlightAtEnd = new int[2][MAX_WINDOWS];
  private final double[] groupCompletionsAtEnd = new double[MAX_WINDOWS];
  private final int[] inFlight = new int[2];

  /** Requests admitted and not yet answered, per endpoint and class: what the engine counts. */
  private final long[][] endpointInFlight = new long[8][2];

  private int snapshotWindow;

  TwoClassSpike(ControllerParameters.Builder parameters, long seed) {
    this.random = new Random(seed);
    ControllerParameters p =
        parameters.initialRate(20).bucketDepth(10).timeout(Duration.ofMillis(100)).build();
    group = new RateGroup();
    for (int i = 0; i < endpoints.length; i++) {
      endpoints[i] =
          new EndpointAdmissionController(
              "e" + i,
              c -> new ClassSettings(TARGET, p),
              new AdmissionListener() {
                @Override
                public void onRound(ControllerRound round) {
                  rounds.add(round);
                }
              },
              true,
              () -> true,
              group);
    }
  }

  // Event: {time, seq, kind, level, arrival, endpoint}; kinds below.
  private static final int SEND = 0;
  private static final int DONE = 1;

  /** Runs {@code seconds} with the high users from {@code highFrom} to {@code highTo} s. */
  TwoClassSpike run(int seconds, int highFrom, int highTo) {
    long start = origin;
    for (int u = 0; u < USERS; u++) {
      schedule(start + exp(THINK), SEND, 0, 0, 0);
      schedule(start + highFrom * SECOND + exp(THINK), SEND, 1, 0, 0);
    }
    long end = start + seconds * SECOND;
    long highEnd = start + highTo * SECOND;
    while (!events.isEmpty() && events.peek()[0] < end) {
      long[] e = events.poll();
      snapshotUpTo(window(e[0]));
      ticker.setNanos(e[0]);
      int level = (int) e[3];
      if (e[2] == SEND) {
        if (level == 1 && e[0] >= highEnd) {
          continue; // the high user leaves
        }
        int page = page();
        EndpointAdmissionController c = endpoints[page];
        ClassController cc = c.forClass(level == 0 ? LOW : HIGH, e[0]);
        int endpoint = page;
        cc.countInFlight(() -> endpointInFlight[endpoint][level]);
        int w = window(e[0]);
        offered[level][w]++;
        // Counted from arrival, before admission decides, as the engine counts.
        endpointInFlight[page][level]++;
        if (c.tryAdmit(cc, e[0])) {
          admitted[level][w]++;
          inFlight[level]++;
          database.addLast(new long[] {e[0], level, page});
          startNext();
        } else {
          endpointInFlight[page][level]--;
          refused[level][w]++;
          schedule(e[0] + PAUSE, SEND, level, 0, 0);
        }
      } else {
        long arrival = e[4];
        int page = (int) e[5];
        EndpointAdmissionController c = endpoints[page];
        c.record(c.forClass(level == 0 ? LOW : HIGH, e[0]), e[0] - arrival, arrival, e[0]);
        served.add(new Served(level, arrival - origin, e[0] - arrival));
        completed[level][window(e[0])]++;
        inFlight[level]--;
        endpointInFlight[page][level]--;
        busy = false;
        startNext();
        schedule(e[0] + exp(THINK), SEND, level, 0, 0);
      }
    }
    ticker.setNanos(end);
    return this;
  }

  private void snapshotUpTo(int window) {
    for (; snapshotWindow < window; snapshotWindow++) {
      for (EndpointAdmissionController e : endpoints) {
        for (ClassController c : e.classes()) {
          rateAtEnd[c.requestClass() == HIGH ? 1 : 0][snapshotWindow] += c.rate();
        }
      }
      inFlightAtEnd[0][snapshotWindow] = inFlight[0];
      inFlightAtEnd[1][snapshotWindow] = inFlight[1];
      groupCompletionsAtEnd[snapshotWindow] = group.completionsPerSecond();
    }
  }

  private int window(long now) {
    return (int) Math.min(MAX_WINDOWS - 1, (now - origin) / (100 * MS));
  }

  /**
   * The low class's admitted share of its offered requests in windows [from, to) of 100 ms,
   * as a fraction of that share over [refFrom, refTo).
   */
  double lowShareRatio(int from, int to, int refFrom, int refTo) {
    return share(0, from, to) / share(0, refFrom, refTo);
  }

  /**
   * Windows of 100 ms from {@code from} until the low class's admitted share is at least half
   * its share over [refFrom, refTo) in three windows in a row.
   */
  int windowsUntilLowBack(int from, int refFrom, int refTo) {
    double half = share(0, refFrom, refTo) / 2;
    for (int w = from; w < MAX_WINDOWS - 3; w++) {
      if (share(0, w, w + 1) >= half
          && share(0, w + 1, w + 2) >= half
          && share(0, w + 2, w + 3) >= half) {
        return w - from;
      }
    }
    return -1;
  }

  /**
   * The experiment's readings of the low class's return ({@code DifferentiationExperiment}),
   * from window {@code from} against windows [refFrom, refTo): its completions over the first
   * three windows as a fraction of three windows' worth before; windows until three in a row
   * complete at least one and a half windows' worth together; its admitted share by the
   * window a request ended in (completed over completed and refused) over the first three
   * windows as a fraction of the share before; and windows until three in a row each reach
   * half of it (−1: never).
   */
  double[] experimentReadings(int from, int refFrom, int refTo) {
    double perWindow = 0;
    long ok = 0;
    long ended = 0;
    for (int w = refFrom; w < refTo; w++) {
      perWindow += completed[0][w];
      ok += completed[0][w];
      ended += completed[0][w] + refused[0][w];
    }
    perWindow /= refTo - refFrom;
    double before = ok / (double) ended;
    double firstThree = completed[0][from] + completed[0][from + 1] + completed[0][from + 2];
    int byCompletions = -1;
    for (int w = from; w < MAX_WINDOWS - 3 && byCompletions < 0; w++) {
      if (completed[0][w] + completed[0][w + 1] + completed[0][w + 2] >= 1.5 * perWindow) {
        byCompletions = w - from;
      }
    }
    long okFirst = 0;
    long endedFirst = 0;
    for (int w = from; w < from + 3; w++) {
      okFirst += completed[0][w];
      endedFirst += completed[0][w] + refused[0][w];
    }
    int byShare = -1;
    for (int w = from; w < MAX_WINDOWS - 3 && byShare < 0; w++) {
      boolean all = true;
      for (int i = w; i < w + 3 && all; i++) {
        int n = completed[0][i] + refused[0][i];
        all = n > 0 && completed[0][i] / (double) n >= before / 2;
      }
      byShare = all ? w - from : -1;
    }
    return new double[] {
      firstThree / (3 * perWindow),
      byCompletions,
      endedFirst == 0 ? 0 : okFirst / (double) endedFirst / before,
      byShare
    };
  }

  double share(int level, int from, int to) {
    long o = 0;
    long a = 0;
    for (int w = from; w < to; w++) {
      o += offered[level][w];
      a += admitted[level][w];
    }
    return o == 0 ? Double.NaN : a / (double) o;
  }

  /** One line per 100 ms window in [from, to): per class offered/admitted/completed, rates. */
  String trace(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int w = from; w < to; w++) {
      long t0 = origin + w * 100 * MS;
      long t1 = t0 + 100 * MS;
      java.util.Map<String, Integer> actions = new java.util.TreeMap<>();
      for (ControllerRound r : rounds) {
        if (r.nowNanos() >= t0 && r.nowNanos() < t1) {
          actions.merge(r.requestClass().charAt(0) + ":" + r.action(), 1, Integer::sum);
        }
      }
      b.append(
          String.format(
              "%5.1f low %3d/%3d/%3d r%6.1f q%3d | high %3d/%3d/%3d r%6.1f q%3d | g%5.1f %s%n",
              w / 10.0,
              offered[0][w],
              admitted[0][w],
              completed[0][w],
              rateAtEnd[0][w],
              inFlightAtEnd[0][w],
              offered[1][w],
              admitted[1][w],
              completed[1][w],
              rateAtEnd[1][w],
              inFlightAtEnd[1][w],
              groupCompletionsAtEnd[w],
              actions));
    }
    return b.toString();
  }

  private void startNext() {
    if (busy || database.isEmpty()) {
      return;
    }
    long[] r = database.removeFirst();
    busy = true;
    schedule(ticker.read() + exp(MEAN_SERVICE), DONE, (int) r[1], r[0], r[2]);
  }

  private void schedule(long at, int kind, int level, long arrival, long page) {
    events.add(new long[] {at, sequence++, kind, level, arrival, page});
  }

  private int page() {
    double x = random.nextDouble();
    for (int i = 0; i < SHARES.length - 1; i++) {
      x -= SHARES[i];
      if (x < 0) {
        return i;
      }
    }
    return SHARES.length - 1;
  }

  private long exp(long mean) {
    return Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) * mean));
  }

  /** The p90 response time of class {@code level}'s requests that arrived in [from, to) s. */
  long p90(int level, double from, double to) {
    long[] r =
        served.stream()
            .filter(
                s ->
                    s.level() == level
                        && s.arrivalNanos() >= from * SECOND
                        && s.arrivalNanos() < to * SECOND)
            .mapToLong(Served::responseNanos)
            .sorted()
            .toArray();
    return r.length == 0 ? -1 : r[(int) Math.ceil(0.9 * r.length) - 1];
  }

  /** Completions per second of class {@code level} in [from, to) s. */
  double completedPerSecond(int level, double from, double to) {
    long n =
        served.stream()
            .filter(s -> s.level() == level)
            .mapToLong(s -> s.arrivalNanos() + s.responseNanos())
            .filter(t -> t >= from * SECOND && t < to * SECOND)
            .count();
    return n / (to - from);
  }
}
