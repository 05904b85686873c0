package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.overloadcontrol.internal.engine.RecordingCpuClock.measuredBetween;
import static org.overloadcontrol.rest.GateFixture.request;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.engine.CpuBurn;
import org.overloadcontrol.internal.engine.RecordingCpuClock;
import org.overloadcontrol.internal.engine.RecordingCpuClock.Reading;

/**
 * The REST gate marks an admitted request running on the thread that goes on to the resource
 * method, so that its completion there (the response filter) gives the concurrency limit the
 * execution's CPU time. The engine reads the thread's real CPU time through a clock that keeps
 * its readings: the execution's start and stop span at least what the method burned, at most
 * what the thread spent from the request filter to the response filter. A request refused at
 * the limit reads nothing.
 */
class ExecutionCpuRestTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long BURN_NANOS = 5_000_000L;

  private final RecordingCpuClock cpu = RecordingCpuClock.ofThreads();
  private GateFixture fixture;
  private RestGate gate;

  @BeforeEach
  void start() {
    assumeThat(RecordingCpuClock.measured()).as("thread CPU time measured").isTrue();
    fixture = new GateFixture(Map.of(), b -> b.cpuClock(cpu));
    gate = fixture.gate;
  }

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
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
    fixture.ticker.advance(Duration.ofSeconds(1));
    gate.filter(ran, ok());
    long around = THREADS.getCurrentThreadCpuTime() - before;

    assertThat(cpu.since(0)).as("a start and a stop here").allMatch(Reading::onThisThread);
    assertThat(measuredBetween(cpu.since(0))).isBetween(burned, around);
    assertThat(burned).isGreaterThanOrEqualTo(BURN_NANOS);
  }

  @Test
  void aRequestRefusedAtTheLimitReadsNothingAndLeavesNoStart() {
    ContainerRequestContext ran = request();
    gate.filter(ran);
    ContainerRequestContext refused = request();
    gate.filter(refused);
    verify(refused).abortWith(any());
    assertThat(cpu.since(0)).as("the start of the one running").hasSize(1);

    CpuBurn.burn(BURN_NANOS);
    fixture.ticker.advance(Duration.ofSeconds(1));
    gate.filter(ran, ok());
    // Only the request that ran, and no start left behind.
    assertThat(cpu.since(0)).hasSize(2).allMatch(Reading::onThisThread);
  }
}
