package org.overloadcontrol.internal.degrade;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.HdrHistogram.Histogram;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * A deterministic discrete-event model of one degradable endpoint behind a whole
 * {@link OverloadEngine} (admission, quality controller and the engine's 100 ms periodic task on
 * a {@link FakeScheduler}): the §4.5 benchmark's "quality knob" as a service whose cost per
 * request is proportional to the quality it was admitted at.
 *
 * <p>A request admitted at quality q needs {@code S(q) = base + q·work} of service on one of
 * {@code servers}; its response time grows with the work admitted over the last second,
 * {@code R = S(q) / max(0.02, 1 − U)} with {@code U} the service demand admitted in that second
 * divided by the servers. The ticker jumps from event to event: minutes of load run in
 * milliseconds and always the same way.
 */
final class DegradableService {

  private static final long SECOND = 1_000_000_000L;
  private static final long TICK = 100_000_000L;

  private record Completion(long at, RequestTag tag) {}

  private record Admitted(long at, double serviceNanos) {}

  /** What one second looked like. */
  record Second(
      long offered, long rejected, double meanQuality, long p90Nanos, boolean admissionEnabled) {}

  private final FakeTicker ticker;
  private final FakeScheduler scheduler;
  private final OverloadEngine engine;
  private final EndpointClass route;
  private final long baseNanos;
  private final long workNanos;
  private final int servers;
  private final PriorityQueue<Completion> inFlight =
      new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
  private final ArrayDeque<Admitted> lastSecond = new ArrayDeque<>();
  private double demandLastSecondNanos;
  private long nextTick;

  final List<Second> seconds = new ArrayList<>();
  private long secondStart;
  private long offered;
  private long rejected;
  private double qualitySum;
  private long admitted;
  private Histogram responseTimes = new Histogram(3);

  DegradableService(
      FakeTicker ticker,
      FakeScheduler scheduler,
      OverloadEngine engine,
      EndpointClass route,
      long baseNanos,
      long workNanos,
      int servers) {
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.engine = engine;
    this.route = route;
    this.baseNanos = baseNanos;
    this.workNanos = workNanos;
    this.servers = servers;
    this.secondStart = ticker.read();
    this.nextTick = ticker.read() + TICK;
  }

  /** Offers {@code perSecond} evenly spaced requests per second for {@code duration} seconds. */
  void run(double perSecond, int duration) {
    long end = ticker.read() + duration * SECOND;
    long interval = (long) (SECOND / perSecond);
    long nextArrival = ticker.read();
    while (nextArrival < end) {
      advanceTo(nextArrival);
      arrive(nextArrival);
      nextArrival += interval;
    }
    advanceTo(end);
  }

  /** Completes requests and runs the engine's periodic task, in time order, up to {@code t}. */
  private void advanceTo(long t) {
    for (; ; ) {
      long completion = inFlight.isEmpty() ? Long.MAX_VALUE : inFlight.peek().at;
      long next = Math.min(completion, nextTick);
      if (next > t) {
        break;
      }
      ticker.setNanos(next);
      rollSeconds(next);
      if (completion <= nextTick) {
        Completion c = inFlight.poll();
        responseTimes.recordValue((c.at - c.tag.arrivalNanos()) / 1000L);
        engine.settle(c.tag, Outcome.COMPLETED, -1L);
      } else {
        scheduler.runDue();
        nextTick += TICK;
      }
    }
    ticker.setNanos(t);
    rollSeconds(t);
  }

  private void arrive(long now) {
    offered++;
    RequestTag tag = engine.tag(route, now);
    switch (engine.arrive(tag)) {
      case ADMIT -> {
        double q = tag.quality();
        qualitySum += q;
        admitted++;
        double service = baseNanos + q * workNanos;
        lastSecond.addLast(new Admitted(now, service));
        demandLastSecondNanos += service;
        while (lastSecond.peekFirst().at < now - SECOND) {
          demandLastSecondNanos -= lastSecond.removeFirst().serviceNanos;
        }
        double utilisation = demandLastSecondNanos / (servers * (double) SECOND);
        long rt = (long) (service / Math.max(0.02, 1.0 - utilisation));
        inFlight.add(new Completion(now + rt, tag));
      }
      case REJECT -> {
        rejected++;
        engine.settle(tag, Outcome.REJECTED, 0L);
      }
      default -> throw new AssertionError("no queues are configured");
    }
  }

  private void rollSeconds(long now) {
    while (now - secondStart >= SECOND) {
      seconds.add(
          new Second(
              offered,
              rejected,
              admitted == 0 ? Double.NaN : qualitySum / admitted,
              responseTimes.getTotalCount() == 0
                  ? -1
                  : responseTimes.getValueAtPercentile(90.0) * 1000L,
              route.endpoint().admission().admissionEnabled()));
      offered = 0;
      rejected = 0;
      qualitySum = 0;
      admitted = 0;
      responseTimes = new Histogram(3);
      secondStart += SECOND;
    }
  }

  /** The seconds from {@code from} (inclusive) to {@code to} (exclusive), counted from the start. */
  List<Second> seconds(int from, int to) {
    return seconds.subList(from, to);
  }
}
