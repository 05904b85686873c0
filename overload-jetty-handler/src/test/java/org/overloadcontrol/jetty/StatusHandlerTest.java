package org.overloadcontrol.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.jmx.MBeanContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.internal.engine.FakeScheduler;
import org.overloadcontrol.internal.engine.FakeTicker;

/**
 * What {@code OverloadHandler} users see of it, as WAR users see the filter's: the status JSON,
 * the Prometheus text and the dashboard over HTTP from {@link OverloadStatusHandler}, and the
 * handler's counts through JMX (Jetty's {@code MBeanContainer} and {@code jmx.OverloadHandlerMBean}).
 * One execution permit and a wait queue of one: with the first request held and the second
 * waiting, the third is refused.
 */
class StatusHandlerTest {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeScheduler scheduler = new FakeScheduler(ticker);
  private final HoldingHandler app = new HoldingHandler();
  private final List<CompletableFuture<ContentResponse>> answers = new ArrayList<>();
  private final MBeanServer mbeans = MBeanServerFactory.newMBeanServer();
  private JettyHarness jetty;
  private OverloadHandler overload;

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.close();
    }
  }

  private void start() throws Exception {
    overload =
        OverloadHandler.builder()
            .putAll(
                Map.of(
                    "queue.permits",
                    "1",
                    "queue.layout",
                    "single",
                    "queue.singleCapacity",
                    "1",
                    "queue.maxWait",
                    "30s"))
            .ticker(ticker)
            .scheduler(scheduler)
            .handler(app)
            .build();
    OverloadStatusHandler status = new OverloadStatusHandler(overload);
    MBeanContainer container = new MBeanContainer(mbeans);
    jetty = new JettyHarness(status);
    // As jetty-home's jmx module does: the container sees every bean of the server.
    jetty.server.addEventListener(container);
    jetty.server.addBean(container);
  }

  /** One held, one waiting, one refused. */
  private void load() throws Exception {
    send("held");
    await("held").until(() -> app.holds("held"));
    send("waiting");
    await("waiting")
        .until(() -> overload.endpointSnapshots().stream().anyMatch(e -> e.waiting() == 1));
    ContentResponse refused =
        jetty.request("/app").headers(h -> h.put("X-Label", "refused")).send();
    assertThat(refused.getStatus()).isEqualTo(503);
  }

  private void send(String label) {
    answers.add(
        new CompletableResponseListener(jetty.request("/app").headers(h -> h.put("X-Label", label)))
            .send());
  }

  private void release() throws Exception {
    app.release("held");
    await("waiting runs").until(() -> app.holds("waiting"));
    app.release("waiting");
    for (CompletableFuture<ContentResponse> a : answers) {
      assertThat(a.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
    }
  }

  @Test
  void statusMetricsAndDashboardOverHttp() throws Exception {
    start();
    load();
    ContentResponse status = jetty.get("/overload/status");
    assertThat(status.getStatus()).isEqualTo(200);
    assertThat(status.getMediaType()).isEqualTo("application/json");
    assertThat(status.getContentAsString())
        .contains("\"name\":\"default\"")
        .contains("\"permitsInUse\":1")
        .contains("\"waiting\":1");
    ContentResponse metrics = jetty.get("/overload/metrics");
    assertThat(metrics.getStatus()).isEqualTo(200);
    assertThat(metrics.getContentAsString()).contains("overload_");
    ContentResponse page = jetty.get("/overload/");
    assertThat(page.getStatus()).isEqualTo(200);
    assertThat(page.getContentAsString()).contains("<html");
    assertThat(jetty.get("/overload/chart.umd.js").getContentAsString()).contains("Chart");
    assertThat(jetty.get("/overload/nothing").getStatus()).isEqualTo(404);
    assertThat(app.arrivals)
        .as("the status bypasses admission and the application")
        .containsExactly("held");
    release();
  }

  @Test
  void countsThroughJmx() throws Exception {
    start();
    Set<ObjectName> names =
        mbeans.queryNames(new ObjectName("org.overloadcontrol.jetty:type=overloadhandler,*"), null);
    assertThat(names).hasSize(1);
    ObjectName name = names.iterator().next();
    assertThat(mbeans.getAttribute(name, "running")).isEqualTo(true);
    load();
    assertThat(mbeans.getAttribute(name, "arrivals")).isEqualTo(3L);
    assertThat(mbeans.getAttribute(name, "refused")).isEqualTo(1L);
    assertThat(mbeans.getAttribute(name, "inFlight")).isEqualTo(1);
    assertThat(mbeans.getAttribute(name, "permits")).isEqualTo(1);
    assertThat(mbeans.getAttribute(name, "waiting")).isEqualTo(1);
    assertThat((String[]) mbeans.getAttribute(name, "endpoints"))
        .containsExactly("default: limit none, 1 in flight, 1 waiting, 3 arrived, 1 refused");
    // What the view reads, as code reads it.
    assertThat(overload.endpointSnapshots())
        .containsExactly(new EndpointSnapshot("default", OptionalInt.empty(), 1, 1, 3, 0, 1, 0));
    assertThat(overload.queuePermits()).isEqualTo(1);
    assertThat(overload.quality("default")).isEqualTo(1.0);
    release();
    assertThat(mbeans.getAttribute(name, "completed")).isEqualTo(2L);
    assertThat(mbeans.getAttribute(name, "inFlight")).isEqualTo(0);
    jetty.close();
    jetty = null;
    assertThat(overload.endpointSnapshots()).isEmpty();
    assertThat(overload.queuePermits()).isZero();
  }
}
