package org.overloadcontrol.benchmarks;

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
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.RequestPipeline;
import org.overloadcontrol.internal.pipeline.RequestView;

/**
 * What the request life cycle in the engine ({@link RequestPipeline}) costs over the engine's
 * own admission: one admitted request of a class with a target under the default concurrency
 * limit, driven as an adapter drives it (a request view in, one step out, one finish), against
 * the same request driven through the engine's calls directly, as the adapters did before.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class PipelinePath {

  /** A request no rule reads, as an adapter's view of it. */
  private static final RequestView VIEW =
      new RequestView() {
        @Override
        public String method() {
          return "GET";
        }

        @Override
        public String path() {
          return "/work";
        }

        @Override
        public String header(String name) {
          return null;
        }

        @Override
        public String cookie(String name) {
          return null;
        }

        @Override
        public String clientAddress() {
          return "127.0.0.1";
        }

        @Override
        public String peerAddress() {
          return "127.0.0.1";
        }

        @Override
        public String requestUri() {
          return "/work";
        }

        @Override
        public String rawQuery() {
          return null;
        }

        @Override
        public boolean secure() {
          return false;
        }

        @Override
        public String contextPath() {
          return "";
        }

        @Override
        public long contentLength() {
          return -1;
        }

        @Override
        public String containerSessionId() {
          return null;
        }

        @Override
        public long declaredResponseSize() {
          return -1;
        }

        @Override
        public boolean canSuspend() {
          return true;
        }
      };

  private OverloadRuntime runtime;
  private RequestPipeline pipeline;
  private OverloadEngine engine;
  private EndpointClass route;

  @Setup(Level.Trial)
  public void setUp() {
    runtime =
        OverloadRuntime.builder(OverloadConfig.of(Engines.admissionKeys()))
            .scheduler(Engines.NO_TIMERS, "unused")
            .start();
    pipeline = runtime.pipeline();
    engine = runtime.engine();
    route = engine.routes().route(Engines.CONTROLLED, Engines.REQUEST);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    runtime.close();
  }

  /** Through the pipeline: view in, the first step, finish. */
  @Benchmark
  public boolean pipeline() {
    Exchange exchange = pipeline.start(VIEW, route);
    return exchange.settle(Outcome.COMPLETED, -1L);
  }

  /** The engine's calls directly: tag, arrive, complete. */
  @Benchmark
  public boolean engineCalls() {
    long now = engine.ticker().read();
    RequestTag tag = engine.tag(route, now, now);
    Decision d = engine.arrive(tag);
    return engine.settle(tag, d == Decision.ADMIT ? Outcome.COMPLETED : Outcome.REJECTED, -1L);
  }
}
