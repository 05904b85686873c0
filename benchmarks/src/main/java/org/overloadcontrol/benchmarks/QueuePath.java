package org.overloadcontrol.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.queue.Waiter;

/**
 * The wait-queue path's bookkeeping, without a container: one execution permit, so every
 * arrival finds it taken. Timers never fire and the listener does nothing, so what is measured
 * is the engine's work (queue, lock, permit hand-over), not the container's suspend/resume.
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class QueuePath {

  /** One execution permit; the token buckets admit (the queue path as measured before). */
  private static final Map<String, String> ONE_PERMIT =
      Map.of(
          "queue.permits",
          "1",
          "queue.browsingCapacity",
          "1",
          "queue.transactionCapacity",
          "1",
          "admission.controller",
          "rate");

  private static final Waiter.Listener NO_OP =
      new Waiter.Listener() {
        @Override
        public void resumed(Waiter waiter) {}

        @Override
        public void expired(Waiter waiter) {}
      };

  /** One request holds the only permit; the next one waits for it. */
  @State(Scope.Thread)
  public static class Handover {
    OverloadEngine engine;
    RequestTag holder;

    @Setup(Level.Trial)
    public void setUp() {
      engine = Engines.admissionOnly(ONE_PERMIT);
      holder = arrive(engine);
      if (holder.decision() != Decision.ADMIT) {
        throw new IllegalStateException("the first request should hold the permit");
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      if (!holder.holdsPermit()) {
        throw new IllegalStateException("the last resumed request holds no permit");
      }
      engine.shutdown();
    }
  }

  /** One request holds the permit and one waits: the queue is full. */
  @State(Scope.Thread)
  public static class Full {
    OverloadEngine engine;

    @Setup(Level.Trial)
    public void setUp() {
      engine = Engines.admissionOnly(ONE_PERMIT);
      arrive(engine);
      RequestTag waiting = arrive(engine);
      if (waiting.decision() != Decision.WAIT || !engine.enqueue(waiting, NO_OP)) {
        throw new IllegalStateException("the second request should wait");
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      engine.shutdown();
    }
  }

  /**
   * One request's wait: it arrives (WAIT), is queued, and is resumed with the permit when the
   * request holding it completes; it then holds the permit for the next one.
   */
  @Benchmark
  public boolean enqueueAndResume(Handover s) {
    RequestTag tag = arrive(s.engine);
    boolean queued = s.engine.enqueue(tag, NO_OP);
    s.engine.settle(s.holder, Outcome.COMPLETED, 0L);
    s.holder = tag;
    return queued;
  }

  /** An arrival that finds no permit and a full queue: refused (queue-full), completed. */
  @Benchmark
  public boolean queueFull(Full s) {
    RequestTag tag = arrive(s.engine);
    boolean queued = s.engine.enqueue(tag, NO_OP);
    s.engine.settle(tag, Outcome.REJECTED, 0L);
    return queued;
  }

  private static RequestTag arrive(OverloadEngine engine) {
    RequestTag tag =
        engine.tag(
            engine.routes().route(Engines.CONTROLLED, Engines.REQUEST), engine.ticker().read());
    engine.arrive(tag);
    return tag;
  }
}
