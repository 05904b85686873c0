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
import org.openjdk.jmh.annotations.Warmup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * The engine's per-request work as an adapter drives it: route, tag, arrive, complete. Run by
 * {@link OneThread} and {@link TwoThreads}; the ratio of their throughputs shows whether
 * requests serialise on something shared.
 *
 * <p>Each request reads the real {@code System.nanoTime} ticker as the filter does (at arrival,
 * and at completion when its response time is sampled) and records its response time when it
 * is sampled, so controller rounds are part of the measured cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public abstract class EngineHotPath {

  private OverloadEngine admission;
  private OverloadEngine withPermits;
  private OverloadEngine concurrency;

  @Setup(Level.Trial)
  public void setUp() {
    // The token buckets (admission.controller=rate), as every benchmark measured them before
    // the concurrency limit became the default.
    admission = Engines.admissionOnly(Map.of("admission.controller", "rate"));
    // Execution permits far above the benchmark's concurrency: the lock-free permit path.
    withPermits =
        Engines.admissionOnly(Map.of("queue.permits", "64", "admission.controller", "rate"));
    // The default: a concurrency limit (200) far above the benchmark's threads.
    concurrency = Engines.admissionOnly(Map.of());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    admission.shutdown();
    withPermits.shutdown();
    concurrency.shutdown();
  }

  /**
   * An admitted request of a class with a target under the default concurrency limit: a permit
   * of the group taken and returned, execution time sampled.
   */
  @Benchmark
  public boolean concurrencyLimit() {
    return once(concurrency, Engines.CONTROLLED, Outcome.COMPLETED);
  }

  /** An admitted request of a class with a target: token, permit-free, response time. */
  @Benchmark
  public boolean controlled() {
    return once(admission, Engines.CONTROLLED, Outcome.COMPLETED);
  }

  /** An endpoint without a target: measured, no token. */
  @Benchmark
  public boolean uncontrolled() {
    return once(admission, Engines.UNCONTROLLED, Outcome.COMPLETED);
  }

  /** As {@link #controlled}, with an execution permit taken and returned. */
  @Benchmark
  public boolean controlledWithPermits() {
    return once(withPermits, Engines.CONTROLLED, Outcome.COMPLETED);
  }

  /** A request refused by its empty token bucket (admission-rate), then completed REJECTED. */
  @Benchmark
  public boolean rejected() {
    return once(admission, Engines.STARVED, Outcome.REJECTED);
  }

  private static boolean once(OverloadEngine engine, String endpoint, Outcome ifAdmitted) {
    EndpointClass route = engine.routes().route(endpoint, Engines.REQUEST);
    // As the adapters do (RequestIntake): one clock reading for the arrival and the decision.
    long now = engine.ticker().read();
    RequestTag tag = engine.tag(route, now, now);
    Decision d = engine.arrive(tag);
    return engine.settle(tag, d == Decision.ADMIT ? ifAdmitted : Outcome.REJECTED, 0L);
  }
}
