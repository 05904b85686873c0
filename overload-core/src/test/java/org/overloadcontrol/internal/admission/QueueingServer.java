package org.overloadcontrol.internal.admission;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A deterministic discrete-event model of the server of {@code AdmissionControlIT} behind an
 * {@link EndpointAdmissionController}: Poisson arrivals (seeded), a FIFO queue in front of
 * {@code permits} workers with a fixed service time, so an admitted request's response time is
 * its wait behind the requests admitted before it plus its service. Unlike
 * {@link SimulatedService}, whose response time follows the admitted rate at once, this one has
 * the dead time of a real queue: after a rate cut the requests already queued still finish late.
 * The ticker jumps from event to event; a minute runs in milliseconds, always the same way.
 */
final class QueueingServer {

  static final long SECOND = 1_000_000_000L;

  /** One request that ran: when it arrived and how long it took. */
  record Served(long arrivalNanos, long responseNanos) {}

  private final FakeTicker ticker;
  private final EndpointAdmissionController controller;
  private final ClassController c;
  private final int permits;
  private final long serviceNanos;
  private final Random random;
  private final ArrayDeque<Long> queued = new ArrayDeque<>();

  /** Completion times of the requests in service, with their arrival times. */
  private final PriorityQueue<long[]> inService =
      new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));

  final List<Served> served = new ArrayList<>();
  final List<Long> admittedArrivals = new ArrayList<>();
  long offeredCount;

  QueueingServer(
      FakeTicker ticker,
      EndpointAdmissionController controller,
      ClassController c,
      int permits,
      long serviceNanos,
      long seed) {
    this.ticker = ticker;
    this.controller = controller;
    this.c = c;
    this.permits = permits;
    this.serviceNanos = serviceNanos;
    this.random = new Random(seed);
  }

  /** Offers Poisson arrivals at {@code ratePerSecond} for {@code seconds}. */
  void offer(double ratePerSecond, int seconds) {
    long end = ticker.read() + seconds * SECOND;
    long next = ticker.read() + interArrival(ratePerSecond);
    while (next < end) {
      runUntil(next);
      offeredCount++;
      if (controller.tryAdmit(c, next)) {
        admittedArrivals.add(next);
        queued.addLast(next);
        startWaiting(next);
      }
      next += interArrival(ratePerSecond);
    }
    runUntil(end);
  }

  private long interArrival(double ratePerSecond) {
    return Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) / ratePerSecond * SECOND));
  }

  private void startWaiting(long now) {
    while (inService.size() < permits && !queued.isEmpty()) {
      inService.add(new long[] {now + serviceNanos, queued.removeFirst()});
    }
  }

  /** Completes every request due by {@code t}, each at its own time, then sets the clock. */
  private void runUntil(long t) {
    while (!inService.isEmpty() && inService.peek()[0] <= t) {
      long[] done = inService.poll();
      ticker.setNanos(done[0]);
      startWaiting(done[0]);
      long response = done[0] - done[1];
      served.add(new Served(done[1], response));
      controller.record(c, response, done[1], done[0]);
    }
    ticker.setNanos(t);
  }

  /** Requests admitted per second among those that arrived in [from, to). */
  double admittedPerSecond(long from, long to) {
    long n = admittedArrivals.stream().filter(a -> a >= from && a < to).count();
    return n * (double) SECOND / (to - from);
  }

  /** The p90 response time of the requests that arrived in [from, to) and were served. */
  long p90ResponseNanos(long from, long to) {
    long[] r =
        served.stream()
            .filter(s -> s.arrivalNanos() >= from && s.arrivalNanos() < to)
            .mapToLong(Served::responseNanos)
            .sorted()
            .toArray();
    return r.length == 0 ? -1 : r[(int) Math.ceil(0.9 * r.length) - 1];
  }

  /** Admitted requests per whole second since {@code from}, for failure messages. */
  String perSecond(long from, long to) {
    long[] counts = new long[(int) ((to - from) / SECOND)];
    for (long a : admittedArrivals) {
      if (a >= from && a < to) {
        counts[(int) ((a - from) / SECOND)]++;
      }
    }
    return Arrays.toString(counts);
  }
}
