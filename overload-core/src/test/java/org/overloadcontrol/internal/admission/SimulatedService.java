package org.overloadcontrol.internal.admission;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A deterministic discrete-event model of a service behind an {@link EndpointAdmissionController}:
 * arrivals come at a fixed rate per class, admitted requests complete after a response time that
 * grows with the admitted load, {@code R = base / max(0.02, 1 − λ/μ)} where λ is the rate
 * admitted over the last second and μ the capacity. The ticker jumps from event to event, so a
 * minute of load runs in milliseconds and always the same way.
 */
final class SimulatedService {

  private static final long SECOND = 1_000_000_000L;

  private record Completion(long at, ClassController c, long responseTime) {}

  private final FakeTicker ticker;
  private final EndpointAdmissionController controller;
  private final double capacity;
  private final long baseNanos;
  private final PriorityQueue<Completion> inFlight =
      new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
  private final ArrayDeque<Long> admittedTimes = new ArrayDeque<>();
  final List<long[]> admittedPerSecond = new ArrayList<>();
  private long admittedThisSecond;
  private long offeredThisSecond;
  private long secondStart;

  SimulatedService(
      FakeTicker ticker, EndpointAdmissionController controller, double capacity, long baseNanos) {
    this.ticker = ticker;
    this.controller = controller;
    this.capacity = capacity;
    this.baseNanos = baseNanos;
    this.secondStart = ticker.read();
  }

  /** Offers each class its rate (requests per second) for {@code seconds}. */
  void run(ClassController[] classes, double[] rates, int seconds) {
    long start = ticker.read();
    long end = start + seconds * SECOND;
    long[] next = new long[classes.length];
    for (int i = 0; i < classes.length; i++) {
      next[i] = rates[i] > 0 ? start : Long.MAX_VALUE;
    }
    for (; ; ) {
      int i = argMin(next);
      long at = next[i];
      if (at >= end) {
        break;
      }
      completeUntil(at);
      ticker.setNanos(at);
      rollSecond(at);
      offeredThisSecond++;
      if (controller.tryAdmit(classes[i], at)) {
        admittedThisSecond++;
        admittedTimes.addLast(at);
        while (admittedTimes.peekFirst() < at - SECOND) {
          admittedTimes.removeFirst();
        }
        double rho = admittedTimes.size() / capacity;
        long rt = (long) (baseNanos / Math.max(0.02, 1.0 - rho));
        inFlight.add(new Completion(at + rt, classes[i], rt));
      }
      next[i] = at + (long) (SECOND / rates[i]);
    }
    completeUntil(end);
    ticker.setNanos(end);
  }

  private void rollSecond(long now) {
    while (now - secondStart >= SECOND) {
      admittedPerSecond.add(new long[] {offeredThisSecond, admittedThisSecond});
      offeredThisSecond = 0;
      admittedThisSecond = 0;
      secondStart += SECOND;
    }
  }

  private void completeUntil(long t) {
    while (!inFlight.isEmpty() && inFlight.peek().at <= t) {
      Completion c = inFlight.poll();
      ticker.setNanos(c.at);
      controller.record(c.c, c.responseTime, c.at);
    }
  }

  private static int argMin(long[] values) {
    int best = 0;
    for (int i = 1; i < values.length; i++) {
      if (values[i] < values[best]) {
        best = i;
      }
    }
    return best;
  }
}
