package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.mockito.Mockito.mock;
import static org.overloadcontrol.internal.engine.RecordingCpuClock.measuredBetween;
import static org.overloadcontrol.servlet.QueuedFilterFixture.holdPermit;
import static org.overloadcontrol.servlet.QueuedFilterFixture.route;

import jakarta.servlet.FilterChain;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.RecordingCpuClock;
import org.overloadcontrol.internal.engine.RecordingCpuClock.Reading;
import org.overloadcontrol.servlet.QueuedFilterFixture.Suspended;

/**
 * The filter marks each admitted request running on the thread that runs it, so that its
 * completion there gives the concurrency limit the execution's CPU time: on the first dispatch,
 * and on the container's re-dispatch of a request that waited for its permit (the filter mapped
 * to ASYNC too). A request whose client left before it ran reads nothing and leaves no start
 * behind on the thread. The engine reads the thread's real CPU time through a clock that keeps
 * its readings: each execution's start and stop span at least what the application burned and
 * at most what the thread spent over the whole call.
 */
class ExecutionCpuFilterTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The CPU time the application burns in each execution. */
  private static final long BURN_NANOS = 5_000_000L;

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler scheduler = new FakeScheduler(harness.ticker);
  private final RecordingCpuClock cpu = RecordingCpuClock.ofThreads();
  private OverloadFilter filter;

  @BeforeEach
  void start() throws Exception {
    assumeThat(RecordingCpuClock.measured()).as("thread CPU time measured").isTrue();
    harness.initParams.put("endpoints.s.target", "2s");
    filter = QueuedFilterFixture.start(harness, scheduler, b -> b.cpuClock(cpu));
  }

  @AfterEach
  void stop() {
    if (filter != null) {
      filter.destroy();
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

  @Test
  void theFirstDispatchRecordsWhatTheApplicationBurned() throws Exception {
    Application app = new Application();
    FilterHarness.Res res = new FilterHarness.Res();
    long before = THREADS.getCurrentThreadCpuTime();
    filter.doFilter(new FilterHarness.Req().build(), res.mock, app);
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(route(filter).outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    assertThat(cpu.since(0)).as("a start and a stop here").allMatch(Reading::onThisThread);
    assertThat(measuredBetween(cpu.since(0))).isBetween(app.burned, around);
    assertThat(app.burned).isGreaterThanOrEqualTo(BURN_NANOS);
  }

  @Test
  void aWaitingRequestResumedAndReDispatchedRecordsItsExecution() throws Exception {
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    assertThat(filter.runtime().engine().queues().waitingCount()).isEqualTo(1);

    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete"); // hands the permit to the waiting request
    assertThat(waiting.dispatches.get()).isEqualTo(1);
    assertThat(cpu.count()).as("the start and stop of the one that ran").isEqualTo(2);

    Application app = new Application();
    long before = THREADS.getCurrentThreadCpuTime();
    waiting.redispatch(filter, app);
    waiting.fire("complete");
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(route(filter).outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
    assertThat(cpu.since(2)).as("a start and a stop here").allMatch(Reading::onThisThread);
    assertThat(measuredBetween(cpu.since(2))).isBetween(app.burned, around);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void aClientGoneWhileWaitingReadsNothingAndLeavesNoStart() throws Exception {
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    waiting.fire("error");
    waiting.fire("complete");
    assertThat(route(filter).abandonedCount()).isEqualTo(1);

    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete");
    assertThat(waiting.dispatches.get()).isZero();
    // Only the request that ran: it started and completed on this thread.
    assertThat(cpu.since(0))
        .as("one start and its stop here")
        .hasSize(2)
        .allMatch(Reading::onThisThread);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
    assertThat(filter.runtime().engine().queues().waitingCount()).isZero();
  }

  @Test
  void aClientGoneAfterTheResumeButBeforeTheReDispatchReadsNothing() throws Exception {
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete");
    assertThat(waiting.dispatches.get()).isEqualTo(1);
    assertThat(cpu.since(0)).as("the one that ran, no start left").hasSize(2);

    // The container never re-dispatches it: the connection failed, then the cycle ends.
    harness.ticker.advance(Duration.ofMillis(300));
    CpuBurn.burn(BURN_NANOS);
    waiting.fire("error");
    waiting.fire("complete");

    assertThat(route(filter).outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(cpu.since(2)).isEmpty();
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }
}
