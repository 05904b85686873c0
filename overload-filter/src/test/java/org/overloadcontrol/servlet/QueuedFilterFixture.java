package org.overloadcontrol.servlet;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * What the tests of the filter's wait path share: a filter with one execution permit and waits
 * of up to 2 s on the harness's fake clock, and requests the container can suspend and resume.
 */
final class QueuedFilterFixture {

  private QueuedFilterFixture() {}

  /** A suspended request: its mocks and what the filter did to its async context. */
  static final class Suspended {
    final FilterHarness.Req req = new FilterHarness.Req();
    final FilterHarness.Res res;
    final HttpServletRequest request;
    final AsyncContext async = mock(AsyncContext.class);
    final List<AsyncListener> listeners = new ArrayList<>();
    final AtomicInteger dispatches = new AtomicInteger();
    final AtomicInteger completions = new AtomicInteger();

    Suspended() throws Exception {
      res = new FilterHarness.Res();
      request = req.build();
      lenient().when(request.isAsyncSupported()).thenReturn(true);
      lenient()
          .when(request.startAsync())
          .thenAnswer(
              i -> {
                req.asyncStarted = true;
                return async;
              });
      lenient()
          .when(request.startAsync(any(), any()))
          .thenAnswer(
              i -> {
                req.asyncStarted = true;
                return async;
              });
      lenient().when(request.getAsyncContext()).thenReturn(async);
      lenient().when(async.getRequest()).thenReturn(request);
      lenient().when(async.getResponse()).thenReturn(res.mock);
      lenient()
          .doAnswer(i -> listeners.add(i.getArgument(0)))
          .when(async)
          .addListener(any(AsyncListener.class));
      lenient().doAnswer(i -> dispatches.incrementAndGet()).when(async).dispatch();
      lenient().doAnswer(i -> completions.incrementAndGet()).when(async).complete();
    }

    void fire(String event) throws Exception {
      for (AsyncListener l : List.copyOf(listeners)) {
        AsyncEvent e = new AsyncEvent(async);
        switch (event) {
          case "complete" -> l.onComplete(e);
          case "timeout" -> l.onTimeout(e);
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

  /** The filter started with one permit and a 2 s wait (and the harness's other keys). */
  static OverloadFilter start(FilterHarness harness, FakeScheduler scheduler) throws Exception {
    return start(harness, scheduler, UnaryOperator.identity());
  }

  /** As {@link #start(FilterHarness, FakeScheduler)}, its runtime built with {@code options}. */
  static OverloadFilter start(
      FilterHarness harness,
      FakeScheduler scheduler,
      UnaryOperator<OverloadRuntime.Builder> options)
      throws Exception {
    harness.initParams.put("queue.permits", "1");
    harness.initParams.put("queue.maxWait", "2s");
    OverloadFilter filter = new OverloadFilter(harness.ticker, AdmissionListener.NONE, scheduler);
    filter.runtimeOptions(options);
    filter.init(harness.filterConfig());
    return filter;
  }

  /** Starts a request whose application goes async, so it holds its permit until completed. */
  static Suspended holdPermit(OverloadFilter filter) throws Exception {
    Suspended s = new Suspended();
    filter.doFilter(s.request, s.res.mock, (rq, rs) -> s.req.asyncStarted = true);
    return s;
  }

  /** The default class of the servlet's endpoint {@code s}. */
  static EndpointClass route(OverloadFilter filter) {
    return filter
        .runtime()
        .engine()
        .endpoint("s")
        .forClass(filter.runtime().engine().config().defaultClass());
  }
}
