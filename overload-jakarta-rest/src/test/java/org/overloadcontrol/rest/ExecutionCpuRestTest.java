package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.admission.ConcurrencyGroup;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;

/**
 * The REST gate marks an admitted request running on the thread that goes on to the resource
 * method, so that its completion there (the response filter) gives the concurrency limit the
 * execution's CPU time: at least what the method burned, at most what the thread spent from the
 * request filter to the response filter. A request refused at the limit records nothing.
 */
class ExecutionCpuRestTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long BURN_NANOS = 5_000_000L;
  private static final String ENDPOINT = "GateResource#search";

  private final FakeTicker ticker = new FakeTicker();
  private OverloadRuntime runtime;
  private RestGate gate;

  @BeforeEach
  void start() {
    assumeThat(THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled())
        .as("thread CPU time measured")
        .isTrue();
    runtime =
        OverloadRuntime.builder(
                OverloadConfig.of(
                    Map.of(
                        "endpoints." + ENDPOINT + ".target",
                        "2s",
                        "admission.controller",
                        "concurrency",
                        "admission.initialLimit",
                        "1",
                        "admission.maxLimit",
                        "1",
                        "queue.nonAsync",
                        "reject")))
            .ticker(ticker)
            .scheduler(new FakeScheduler(ticker), "test")
            .start();
    gate = new RestGate(runtime.pipeline(), ENDPOINT);
  }

  @AfterEach
  void close() {
    if (runtime != null) {
      runtime.close();
    }
  }

  private ConcurrencyGroup group() {
    return runtime.engine().endpoint(ENDPOINT).concurrencyGroup();
  }

  /** A GET of /gate/search, as the implementation hands it over. */
  private static ContainerRequestContext request() {
    ContainerRequestContext request = mock(ContainerRequestContext.class);
    UriInfo uri = mock(UriInfo.class);
    when(uri.getPath()).thenReturn("gate/search");
    when(uri.getRequestUri()).thenReturn(URI.create("http://127.0.0.1/gate/search"));
    when(uri.getBaseUri()).thenReturn(URI.create("http://127.0.0.1/"));
    when(request.getUriInfo()).thenReturn(uri);
    when(request.getMethod()).thenReturn("GET");
    when(request.getHeaderString(anyString())).thenReturn(null);
    when(request.getCookies()).thenReturn(Map.of());
    when(request.getSecurityContext()).thenReturn(mock(SecurityContext.class));
    when(request.getLength()).thenReturn(-1);
    Map<String, Object> properties = new HashMap<>();
    doAnswer(i -> properties.put(i.getArgument(0), i.getArgument(1)))
        .when(request)
        .setProperty(anyString(), any());
    doAnswer(i -> properties.remove(i.<String>getArgument(0)))
        .when(request)
        .removeProperty(anyString());
    when(request.getProperty(anyString())).thenAnswer(i -> properties.get(i.getArgument(0)));
    return request;
  }

  /** A 200 without an entity: the response filter finishes the request. */
  private static ContainerResponseContext ok() {
    ContainerResponseContext response = mock(ContainerResponseContext.class);
    when(response.getHeaders()).thenReturn(new MultivaluedHashMap<>());
    when(response.getStatus()).thenReturn(200);
    when(response.hasEntity()).thenReturn(false);
    return response;
  }

  @Test
  void aRequestThatRunsRecordsWhatTheMethodBurned() {
    ContainerRequestContext ran = request();
    long before = THREADS.getCurrentThreadCpuTime();
    gate.filter(ran);
    verify(ran, never()).abortWith(any());
    long burned = CpuBurn.burn(BURN_NANOS); // the resource method
    ticker.advance(Duration.ofSeconds(1));
    gate.filter(ran, ok());
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(group().executionCpuNanos()).isBetween(burned, around);
    assertThat(burned).isGreaterThanOrEqualTo(BURN_NANOS);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
  }

  @Test
  void aRequestRefusedAtTheLimitRecordsNothingAndLeavesNoStart() {
    ContainerRequestContext ran = request();
    gate.filter(ran);
    ContainerRequestContext refused = request();
    gate.filter(refused);
    verify(refused).abortWith(any());
    assertThat(OverloadEngine.executionStartedOnThisThread())
        .as("the start of the one running")
        .isTrue();

    CpuBurn.burn(BURN_NANOS);
    ticker.advance(Duration.ofSeconds(1));
    gate.filter(ran, ok());
    // Only the request that ran, and no start left behind.
    assertThat(group().executionsMeasured()).isEqualTo(1);
    assertThat(OverloadEngine.executionStartedOnThisThread()).isFalse();
  }
}
