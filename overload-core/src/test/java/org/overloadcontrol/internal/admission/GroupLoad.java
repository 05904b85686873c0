package org.overloadcontrol.internal.admission;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.LimitRound;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * A load on one class of a concurrency group, on a fake clock moved a millisecond a step, for
 * the limit's tests: arrivals each millisecond, or a closed loop of clients that send again at
 * once after an answer or a refusal; executions as long as the test says; a request over the
 * limit waits up to {@link #maxWait} and then leaves. Each step ends with the group's tick.
 */
final class GroupLoad {

  static final long MS = 1_000_000L;

  /** An execution's length, from the time since the load began and the executions in flight. */
  interface Execution {
    long nanos(long elapsedNanos, int inFlight);
  }

  final ConcurrencyGroup group;
  final ConcurrencyGroup.Partition partition;
  final long start;
  private final FakeTicker clock;
  private final ArrayDeque<Long> waiting = new ArrayDeque<>();
  private final List<long[]> executing = new ArrayList<>(); // {start, end, arrival, hand-over}

  /** How long a request waits for a permit before it leaves. */
  long maxWait = 100 * MS;

  /** Whether a response's time, which decides its class's miss, counts its wait. */
  boolean waitsInResponse;

  /**
   * How long a request that waited for its permit holds it before its execution starts: the
   * wait for a container thread to resume it on. Counted in its response, not its execution.
   */
  long handOverNanos;

  /** The share of each execution spent on its thread's CPU; negative records none. */
  double cpuShare = -1;

  /** Each execution's CPU time, whatever its length, where {@link #cpuShare} is negative. */
  long cpuNanos = -1;

  /** The executions completed so far. */
  long completed;

  /**
   * A group under the engine's steps (setpoint 0.9, cut 0.8, growth 1.05, at least 1), windows
   * of 100 ms or 100 samples, starting at {@code initial}, at most {@code max}.
   */
  static ConcurrencyGroup group(int initial, int max, AdmissionListener listener, long startNanos) {
    return new ConcurrencyGroup(
        "api",
        new ConcurrencyLimit(0.9, 0.8, 1.05, 1, max),
        initial,
        100 * MS,
        100,
        listener,
        startNanos);
  }

  /** As {@link #group}, from {@code clock}'s now, its rounds added to {@code rounds}. */
  static ConcurrencyGroup recordedGroup(
      int initial, int max, FakeTicker clock, List<LimitRound> rounds) {
    return group(
        initial,
        max,
        new AdmissionListener() {
          @Override
          public void onLimitRound(LimitRound round) {
            rounds.add(round);
          }
        },
        clock.read());
  }

  GroupLoad(
      ConcurrencyGroup group, ClassDefinition requestClass, long targetNanos, FakeTicker clock) {
    this.group = group;
    this.partition = group.partition(requestClass, targetNanos, targetNanos / 2);
    this.clock = clock;
    this.start = clock.read();
  }

  /**
   * Runs {@code millis} steps: {@code perMilli} arrivals a step and, from the first step, a
   * closed loop of {@code clients}.
   */
  void drive(long millis, int perMilli, int clients, Execution execution) {
    ConcurrencyGroup.Partition p = partition;
    for (long t = 0; t < millis; t++) {
      long now = clock.advanceNanos(MS).read();
      for (int i = executing.size() - 1; i >= 0; i--) {
        long[] e = executing.get(i);
        if (e[1] <= now) {
          executing.remove(i);
          completed++;
          p.release(0);
          long length = e[1] - e[0];
          if (cpuShare >= 0) {
            p.recordCpu((long) (length * cpuShare), length);
          } else if (cpuNanos >= 0) {
            p.recordCpu(Math.min(cpuNanos, length), length);
          }
          p.record(length, waitsInResponse ? e[1] - e[2] : length, e[3], now, 0);
          if (clients > 0) {
            waiting.addLast(now); // the client sends again at once
          }
        }
      }
      for (int i = 0; i < perMilli; i++) {
        waiting.addLast(now);
      }
      if (clients > 0 && t == 0 && executing.isEmpty() && waiting.isEmpty()) {
        for (int i = 0; i < clients; i++) {
          waiting.addLast(now);
        }
      }
      while (!waiting.isEmpty() && now - waiting.peekFirst() > maxWait) {
        waiting.pollFirst();
        if (clients > 0) {
          waiting.addLast(now); // refused: the client sends again
        }
      }
      while (!waiting.isEmpty() && p.tryAcquire(0)) {
        long arrival = waiting.pollFirst();
        long begin = arrival < now ? now + handOverNanos : now;
        // Requests still in their hand-over count as in flight: no test with a hand-over has
        // executions whose length depends on it.
        long length = execution.nanos(now - start, executing.size() + 1);
        executing.add(new long[] {begin, begin + length, arrival, begin - now});
      }
      if (!waiting.isEmpty()) {
        p.markWaited();
      }
      group.tick(now);
    }
  }
}
