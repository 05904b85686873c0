package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * The Jetty handler's bandwidth shares and virtual queue in its observability: after requests
 * over HTTP to a real server, the application's Dropwizard registry (given to the status
 * handler) and the status JSON show the groups' and the queue's counts, and the metrics leave
 * the registry when the server stops.
 */
class ObservabilityHandlerTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final MetricRegistry registry = new MetricRegistry();
  private JettyHarness jetty;
  private OverloadHandler handler;

  /** Writes 2,000 bytes, taking 30 ms of the fake clock. */
  final class Sender extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      ticker.advance(Duration.ofMillis(30));
      response.write(true, ByteBuffer.wrap(new byte[2_000]), callback);
      return true;
    }
  }

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.close();
    }
  }

  /** A count (a Dropwizard counter) or another value (a gauge) of the registry. */
  private long metric(String name) {
    com.codahale.metrics.Counter count = registry.getCounters().get(name);
    return count != null
        ? count.getCount()
        : ((Number) registry.getGauges().get(name).getValue()).longValue();
  }

  private long completed() {
    return handler.runtime().engine().endpoints().stream()
        .flatMap(e -> e.classes().stream())
        .mapToLong(c -> c.outcomeCount(Outcome.COMPLETED))
        .sum();
  }

  @Test
  void registryAndStatusShowGroupsAndQueue() throws Exception {
    handler =
        OverloadHandler.builder()
            .put("bandwidth.total", "100KB/s")
            .put("bandwidth.paths", "/img/*")
            // One group with all of B: never delayed, so each request completes at once.
            .put("bandwidth.groups.all.share", "100%")
            .put("bandwidth.defaultGroup", "all")
            .put("virtualQueue.enabled", "true")
            .put("virtualQueue.paths", "/checkout")
            .put("virtualQueue.capacity", "1")
            .ticker(ticker)
            .scheduler(scheduler)
            .wallClock(Clock.fixed(Instant.ofEpochSecond(1_767_225_600L), ZoneOffset.UTC))
            .handler(new Sender())
            .build();
    OverloadStatusHandler status = new OverloadStatusHandler(handler);
    status.setMetricRegistry(registry);
    assertThat(status.statusJson()).isNull();
    jetty = new JettyHarness(status);

    for (int i = 0; i < 3; i++) {
      assertThat(jetty.get("/img/a.png").getStatus()).isEqualTo(200);
    }
    await("three completions").until(() -> completed() == 3);
    assertThat(jetty.get("/checkout").getStatus()).isEqualTo(200); // slot 0
    ContentResponse told =
        jetty.request("/checkout").headers(h -> h.put("Accept", "application/json")).send();
    assertThat(told.getStatus()).isEqualTo(503); // slot 1: wait, with a token
    assertThat(jetty.get("/checkout?oc_token=AAAA").getStatus()).isEqualTo(403);
    await("four completions").until(() -> completed() == 4);

    assertThat(metric("overload.bandwidth.group.all.admitted")).isEqualTo(3);
    assertThat(metric("overload.bandwidth.group.all.allocated_bytes_per_second"))
        .isEqualTo(100_000);
    assertThat(metric("overload.bandwidth.total_bytes_per_second")).isEqualTo(100_000);
    assertThat(metric("overload.virtual_queue.passed")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.told_to_wait")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.refusals.forged")).isEqualTo(1);
    assertThat(metric("overload.virtual_queue.current_wait_seconds")).isEqualTo(2);

    String json = status.statusJson();
    assertThat(json)
        .contains("\"bandwidth\":{\"totalBytesPerSecond\":100000,")
        .contains("{\"name\":\"all\",\"allocatedBytesPerSecond\":100000,")
        .contains("\"admitted\":3,\"refused\":0}")
        .contains("\"virtualQueue\":{\"passed\":1,\"tokenAdmitted\":0,\"toldToWait\":1,")
        .contains("\"forged\":1");

    assertThat(metric("overload.bandwidth.group.all.admitted")).isEqualTo(3);

    jetty.close();
    jetty = null;
    assertThat(registry.getNames()).isEmpty();
  }
}
