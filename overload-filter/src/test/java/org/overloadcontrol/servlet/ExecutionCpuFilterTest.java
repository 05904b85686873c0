package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The filter marks each admitted request running on the thread that runs it, so that its
 * completion there gives the concurrency limit the execution's CPU time: on the first dispatch,
 * and on the container's re-dispatch of a request that waited for its permit (the filter mapped
 * to ASYNC too). A request whose client left before it ran records nothing and leaves no start
 * behind on the thread. The readings are the thread's real CPU time: each execution records at
 * least what the application burned and at most what the thread spent over the whole call.
 */
class ExecutionCpuFilterTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The CPU time the application burns in each execution. */
  private static final long BURN_NANOS = 5_000_000L;

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler scheduler = new FakeScheduler(harness.ticker);
  private OverloadFilter filter;

  @BeforeEach
  void start() throws Exception {
    assumeThat(THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled())
        .as("thread CPU time measured")
        .isTrue();
    harness.initParams.put("endpoints.s.target", "2s");
    harness.initParams.put("queue.permits", "1");
    harness.initParams.put("queue.maxWait", "2s");
    filter = new OverloadFilter(harness.ticker, AdmissionListener.NONE, scheduler);
    filter.init(harness.filterConfig());
  }

  @AfterEach
  void stop() {
    if (filter != null) {
      filter.destroy();
    }
  }

  /** A request the container can suspend, with what the filter did to its async context. */
  private static final class Suspended {
    final FilterHarness.Req req = new FilterHarness.Req();
    final FilterHarness.Res res;
    final HttpServletRequest request;
    final AsyncContext async = mock(AsyncContext.class);
    final List<AsyncListener> listeners = new ArrayList<>();
    int dispatches;

    Suspended() throws Exception {
      res = new FilterHarness.Res();
      request = req.build();
      lenient().when(request.isAsyncSupported()).thenReturn(true);
      lenient()
          .when(request.startAsync(any(), any()))
          .thenAnswer(
              i -> {
                req.asyncStarted = true;
                return async;
              });
      lenient().when(request.getAsyncContext()).thenReturn(async);
      lenient()
          .doAnswer(i -> listeners.add(i.getArgument(0)))
          .when(async)
          .addListener(any(AsyncListener.class));
      lenient().doAnswer(i -> dispatches++).when(async).dispatch();
    }

    void fire(String event) throws Exception {
      for (AsyncListener l : List.copyOf(listeners)) {
        AsyncEvent e = new AsyncEvent(async);
        switch (event) {
          case "complete" -> l.onComplete(e);
          case "error" -> l.onError(e);
          default -> throw new IllegalArgumentException(event);
        }
      }
    }

    /** The container's re-dispatch after the engine resumed it, through the filter. */
    void redispatch(OverloadFilter filter, FilterChain chain) throws Exception {
      when(request.getDispatcherType()).thenReturn(DispatcherType.ASYNC);
      req.asyncStarted = false;
      filter.doFilter(request, res.mock, chain);
    }
  }

  /** The application: burns {@link #BURN_NANOS} of CPU and lets a second go by. */
  private final class Application implements FilterChain {
    long burned = -1;

    @Override
    public void doFilter(jakarta.servlet.ServletRequest rq, jakarta.servlet.ServletResponse rs) {
      burned = CpuBurn.burn(BURN_NANOS);
      harness.ticker.advance(Duration.ofSeconds(1));
    }
  }

  private ConcurrencyGroup group() {
    return filter.runtime().engine().endpoint("s").concurrencyGroup();
  }

  private EndpointClass route() {
    return filter
        .runtime()
        .engine()
        .endpoint("s")
        .forClass(filter.runtime().engine().config().defaultClass());
  }

  /** Starts a request whose application goes async, so it holds the one permit. */
  private Suspended holdPermit() throws Exception {
    Suspended s = new Suspended();
    filter.doFilter(s.request, s.res.mock, (rq, rs) -> s.req.asyncStarted = true);
    return s;
  }

  @Test
  void theFirstDispatchRecordsWhatTheApplicationBurned() throws Exception {
    Application app = new Application();
    FilterHarness.Res res = new FilterHarness.Res();
    long before = THREADS.getCurrentThreadCpuTime();
    filter.doFilter(new FilterHarness.Req().build(), res.mock, app);
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(route().outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isBetween(app.burned, around);
    assertThat(app.burned).isGreaterThanOrEqualTo(BURN_NANOS);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
  }

  @Test
  void aWaitingRequestResumedAndReDispatchedRecordsItsExecution() throws Exception {
    Suspended running = holdPermit();
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    assertThat(filter.runtime().engine().queues().waitingCount()).isEqualTo(1);

    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete"); // hands the permit to the waiting request
    assertThat(waiting.dispatches).isEqualTo(1);
    long measuredBefore = group().executionsMeasured();
    long cpuBefore = group().executionCpuNanos();

    Application app = new Application();
    long before = THREADS.getCurrentThreadCpuTime();
    waiting.redispatch(filter, app);
    waiting.fire("complete");
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(route().outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
    assertThat(group().executionsMeasured() - measuredBefore).isEqualTo(1);
    assertThat(group().executionCpuNanos() - cpuBefore).isBetween(app.burned, around);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void aClientGoneWhileWaitingRecordsNothingAndLeavesNoStart() throws Exception {
    Suspended running = holdPermit();
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    waiting.fire("error");
    waiting.fire("complete");
    assertThat(route().abandonedCount()).isEqualTo(1);

    harness.ticker.advance(Duration.ofMillis(300));
    long measuredBefore = group().executionsMeasured();
    running.fire("complete");
    assertThat(waiting.dispatches).isZero();
    // Only the request that ran: it started and completed on this thread.
    assertThat(group().executionsMeasured() - measuredBefore).isEqualTo(1);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
    assertThat(filter.runtime().engine().queues().waitingCount()).isZero();
  }

  @Test
  void aClientGoneAfterTheResumeButBeforeTheReDispatchRecordsNothing() throws Exception {
    Suspended running = holdPermit();
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete");
    assertThat(waiting.dispatches).isEqualTo(1);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
    long measuredBefore = group().executionsMeasured();

    // The container never re-dispatches it: the connection failed, then the cycle ends.
    harness.ticker.advance(Duration.ofMillis(300));
    CpuBurn.burn(BURN_NANOS);
    waiting.fire("error");
    waiting.fire("complete");

    assertThat(route().outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(group().executionsMeasured() - measuredBefore).isZero();
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }
}
