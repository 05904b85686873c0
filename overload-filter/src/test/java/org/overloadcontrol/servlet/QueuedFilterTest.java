package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.overloadcontrol.servlet.QueuedFilterFixture.holdPermit;
import static org.overloadcontrol.servlet.QueuedFilterFixture.route;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.RejectionReason;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.servlet.QueuedFilterFixture.Suspended;

/** The filter's wait path: suspend, resume by dispatch, expire, shut down, no-async fallbacks. */
class QueuedFilterTest {

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler scheduler = new FakeScheduler(harness.ticker);

  private OverloadFilter start() throws Exception {
    return QueuedFilterFixture.start(harness, scheduler);
  }

  @Test
  void waitingRequestIsSuspendedThenResumedByDispatchAndCompletesOnce() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isEqualTo(1);

    Suspended waiting = new Suspended();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(waiting.request, waiting.res.mock, chain);
    verify(chain, never()).doFilter(any(), any());
    verify(waiting.request).startAsync(any(), any());
    verify(waiting.async).setTimeout(2_000L + 30_000L);
    assertThat(filter.runtime().engine().queues().waitingCount()).isEqualTo(1);

    harness.ticker.advance(Duration.ofMillis(300));
    running.fire("complete");
    assertThat(waiting.dispatches.get()).isEqualTo(1);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isEqualTo(1);

    // The container re-dispatches: the filter lets the async dispatch run the application.
    waiting.redispatch(filter, chain);
    verify(chain).doFilter(any(), any());
    assertThat(Overload.context(waiting.request).orElseThrow().waited())
        .isEqualTo(Duration.ofMillis(300));
    waiting.fire("complete");
    waiting.fire("complete");

    EndpointClass route = route(filter);
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
    assertThat(route.enqueuedCount()).isEqualTo(1);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
    assertThat(filter.runtime().engine().queues().waitingCount()).isZero();
  }

  @Test
  void snapshotsShowTheLoadOfEachEndpointAndThePermits() throws Exception {
    OverloadFilter filter = new OverloadFilter();
    assertThat(filter.endpointSnapshots()).isEmpty();
    assertThat(filter.queuePermits()).isZero();
    assertThat(filter.quality("s")).isEqualTo(1.0);

    filter = start();
    assertThat(filter.queuePermits()).isEqualTo(1);
    Suspended running = holdPermit(filter);
    filter.doFilter(new Suspended().request, new FilterHarness.Res().mock, mock(FilterChain.class));
    assertThat(filter.endpointSnapshots())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.name()).isEqualTo("s");
              assertThat(e.inFlight()).isEqualTo(1);
              assertThat(e.waiting()).isEqualTo(1);
              assertThat(e.arrivals()).isEqualTo(2);
              assertThat(e.completed()).isZero();
            });
    running.fire("complete");
    assertThat(filter.endpointSnapshots().get(0).completed()).isEqualTo(1);
    filter.destroy();
    assertThat(filter.endpointSnapshots()).isEmpty();
  }

  /**
   * The filter as README declares it, for the REQUEST dispatch only: the container runs the
   * resumed request without passing it through the filter, and records what the application
   * threw on the request (as Jetty and Tomcat do) before completing it.
   */
  @Test
  void resumedRequestThatThrowsIsFailedWithoutTheFilterSeeingItsDispatch() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    running.fire("complete");
    assertThat(waiting.dispatches.get()).isEqualTo(1);
    assertThat(Overload.context(waiting.request)).isPresent();

    waiting.req.attributes.put(
        jakarta.servlet.RequestDispatcher.ERROR_EXCEPTION,
        new ServletException("the application failed"));
    waiting.fire("complete");
    assertThat(route(filter).outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void destroyLeavesAResumedRequestThatRunsAlone() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    Suspended resumed = new Suspended();
    filter.doFilter(resumed.request, resumed.res.mock, mock(FilterChain.class));
    running.fire("complete");
    assertThat(resumed.dispatches.get()).isEqualTo(1);

    // The container runs it (the filter does not see that dispatch) while the filter stops.
    EndpointClass route = route(filter);
    filter.destroy();
    assertThat(resumed.res.status).as("nothing written under a running request").isNotEqualTo(503);
    assertThat(resumed.completions.get()).isZero();
    // Settled without touching it, since Jetty never reports a request its stop cut off.
    assertThat(route.outcomeCount(Outcome.FAILED)).isEqualTo(1);
    resumed.fire("complete");
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isEqualTo(1);
    assertThat(route.outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(route.outcomeCount(Outcome.EXPIRED)).isZero();
  }

  @Test
  void aResumedRequestTheContainerWillNotRunIsExpiredAsShutdownAndItsPermitReturned()
      throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    org.mockito.Mockito.doThrow(new IllegalStateException("stopping"))
        .when(waiting.async)
        .dispatch();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    running.fire("complete");
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    assertThat(
            ((org.overloadcontrol.internal.engine.RequestTag)
                    Overload.context(waiting.request).orElseThrow())
                .reason())
        .isEqualTo(RejectionReason.SHUTDOWN);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void anApplicationStillAsyncAtTheStopIsSettledUntouched() throws Exception {
    OverloadFilter filter = start();
    Suspended async = holdPermit(filter);
    EndpointClass route = route(filter);
    filter.destroy();
    // Jetty never reports a request its stop cut off: settled here, nothing written.
    assertThat(route.outcomeCount(Outcome.FAILED)).isEqualTo(1);
    assertThat(async.res.status).isNotEqualTo(503);
    assertThat(async.completions.get()).isZero();
    async.fire("complete");
    assertThat(route.outcomeCount(Outcome.COMPLETED)).isZero();
  }

  @Test
  void aDispatchAStoppingTomcatRefusesNeitherLosesTheOutcomeNorTheNextWaiter() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    Suspended refused = new Suspended();
    // What a stopping Tomcat throws from AsyncContext.dispatch().
    org.mockito.Mockito.doThrow(
            new UnsupportedOperationException("does not support" + " asynchronous dispatching"))
        .when(refused.async)
        .dispatch();
    filter.doFilter(refused.request, refused.res.mock, mock(FilterChain.class));
    Suspended next = new Suspended();
    filter.doFilter(next.request, next.res.mock, mock(FilterChain.class));
    org.assertj.core.api.Assertions.assertThatCode(() -> running.fire("complete"))
        .doesNotThrowAnyException();
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    assertThat(refused.res.status).as("it never ran: answered as a waiting one").isEqualTo(503);
    assertThat(next.dispatches.get()).as("the next waiter got the permit").isEqualTo(1);
    assertThat(filter.runtime().engine().queues().waitingCount()).isZero();
  }

  @Test
  void deadlinePassesAnd503IsWrittenFromTheTimer() throws Exception {
    OverloadFilter filter = start();
    holdPermit(filter);
    Suspended waiting = new Suspended();
    waiting.req.header("Accept", "application/json");
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    harness.ticker.advance(Duration.ofSeconds(2));
    scheduler.runDue();
    assertThat(waiting.res.status).isEqualTo(503);
    assertThat(waiting.res.headers).containsKey("Retry-After");
    assertThat(waiting.res.bodyText()).contains("\"reason\":\"expired\"");
    assertThat(waiting.completions.get()).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    // The container's later events change nothing.
    waiting.fire("timeout");
    waiting.fire("complete");
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.COMPLETED)).isZero();
  }

  @Test
  void clientThatLeavesWhileWaitingIsRemovedAndCounted() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    waiting.fire("error");
    waiting.fire("complete");
    assertThat(filter.runtime().engine().queues().waitingCount()).isZero();
    assertThat(route(filter).abandonedCount()).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
    running.fire("complete");
    assertThat(waiting.dispatches.get()).isZero();
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void containerTimeoutIsASafetyNetThatAnswers503() throws Exception {
    OverloadFilter filter = start();
    holdPermit(filter);
    Suspended waiting = new Suspended();
    filter.doFilter(waiting.request, waiting.res.mock, mock(FilterChain.class));
    waiting.fire("timeout");
    assertThat(waiting.res.status).isEqualTo(503);
    assertThat(waiting.completions.get()).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.EXPIRED)).isEqualTo(1);
  }

  @Test
  void fullQueueAnswers503AndEndsTheAsyncCycle() throws Exception {
    harness.initParams.put("queue.classes.default.capacity", "1");
    OverloadFilter filter = start();
    holdPermit(filter);
    filter.doFilter(new Suspended().request, new FilterHarness.Res().mock, mock(FilterChain.class));
    Suspended refused = new Suspended();
    filter.doFilter(refused.request, refused.res.mock, mock(FilterChain.class));
    assertThat(refused.res.status).isEqualTo(503);
    assertThat(refused.completions.get()).isEqualTo(1);
    assertThat(route(filter).outcomeCount(Outcome.REJECTED)).isEqualTo(1);
  }

  @Test
  void destroyAnswersEveryWaiter() throws Exception {
    OverloadFilter filter = start();
    holdPermit(filter);
    Suspended a = new Suspended();
    Suspended b = new Suspended();
    filter.doFilter(a.request, a.res.mock, mock(FilterChain.class));
    filter.doFilter(b.request, b.res.mock, mock(FilterChain.class));
    EndpointClass route = route(filter);
    filter.destroy();
    assertThat(a.res.status).isEqualTo(503);
    assertThat(b.res.status).isEqualTo(503);
    assertThat(a.completions.get() + b.completions.get()).isEqualTo(2);
    assertThat(route.outcomeCount(Outcome.EXPIRED)).isEqualTo(2);
  }

  @Test
  void withoutAsyncSupportTheRequestWaitsOnItsThreadByDefault() throws Exception {
    OverloadFilter filter = start();
    Suspended running = holdPermit(filter);
    FilterHarness.Req req = new FilterHarness.Req();
    HttpServletRequest request = req.build(); // isAsyncSupported() is false
    FilterChain chain = mock(FilterChain.class);
    CompletableFuture<Void> blocked =
        CompletableFuture.runAsync(
            () -> {
              try {
                filter.doFilter(request, new FilterHarness.Res().mock, chain);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    while (filter.runtime().engine().queues().waitingCount() == 0) {
      Thread.onSpinWait();
    }
    assertThat(blocked).isNotDone();
    running.fire("complete");
    blocked.get(10, TimeUnit.SECONDS);
    verify(chain).doFilter(any(), any());
    assertThat(route(filter).outcomeCount(Outcome.COMPLETED)).isEqualTo(2);
    assertThat(filter.runtime().engine().queues().permitsInUse()).isZero();
  }

  @Test
  void withoutAsyncSupportRejectModeRefusesAtOnce() throws Exception {
    harness.initParams.put("queue.nonAsync", "reject");
    OverloadFilter filter = start();
    holdPermit(filter);
    FilterHarness.Res res = new FilterHarness.Res();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(
        new FilterHarness.Req().header("Accept", "application/json").build(), res.mock, chain);
    verify(chain, never()).doFilter(any(), any());
    assertThat(res.status).isEqualTo(503);
    assertThat(res.bodyText()).contains("\"reason\":\"no-async\"");
  }
}
