package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.internal.metrics.Observability;

/**
 * The status servlet behind the filter, on Mockito servlet objects: who may read it, what each
 * route serves, and that the filter never sheds its requests.
 */
class OverloadStatusServletTest {

  @RequestClass(value = "search", rank = 3, utility = 36)
  @ResponseTimeTarget("1s")
  static final class SearchServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  private final FilterHarness harness = new FilterHarness();
  private final Map<String, String> servletParams = new HashMap<>();
  private OverloadFilter filter;
  private OverloadStatusServlet servlet;

  private void start() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    harness.servlets.put("overload-status", OverloadStatusServlet.class);
    harness.initParams.put("admission.controller", "rate");
    harness.initParams.put("controller.initialRate", "1");
    harness.initParams.put("controller.bucketDepth", "1");
    FilterConfig fc = harness.filterConfig();
    filter =
        new OverloadFilter(harness.ticker, org.overloadcontrol.admission.AdmissionListener.NONE);
    filter.init(fc);
    ServletContext context = fc.getServletContext();
    ServletConfig sc = mock(ServletConfig.class);
    when(sc.getServletContext()).thenReturn(context);
    lenient().when(sc.getServletName()).thenReturn("overload-status");
    lenient()
        .when(sc.getInitParameter(anyString()))
        .thenAnswer(i -> servletParams.get((String) i.getArgument(0)));
    servlet = new OverloadStatusServlet();
    servlet.init(sc);
  }

  @AfterEach
  void stop() {
    if (filter != null) {
      filter.destroy();
    }
  }

  private FilterHarness.Res get(String remote, String pathInfo) throws Exception {
    FilterHarness.Req req = new FilterHarness.Req().servlet("overload-status", "/overload");
    req.remote = remote;
    req.pathInfo = pathInfo;
    FilterHarness.Res res = new FilterHarness.Res();
    servlet.service(req.build(), res.mock);
    return res;
  }

  private void search() throws Exception {
    filter.doFilter(
        new FilterHarness.Req().servlet("search", "/search").build(),
        new FilterHarness.Res().mock,
        (rq, rs) -> {});
  }

  @Test
  void refusesRemoteAddressesByDefault() throws Exception {
    start();
    for (String path : new String[] {"/status", "/metrics", "/", "/chart.umd.js"}) {
      FilterHarness.Res res = get("203.0.113.9", path);
      assertThat(res.status).as(path).isEqualTo(403);
      assertThat(res.bodyText()).doesNotContain("endpoints").contains("403 Forbidden");
    }
    assertThat(get("127.0.0.1", "/status").status).isEqualTo(200);
  }

  @Test
  void allowListAndRoleFromInitParams() throws Exception {
    servletParams.put("allow", "203.0.113.0/24");
    start();
    assertThat(get("203.0.113.9", "/status").status).isEqualTo(200);
    assertThat(get("198.51.100.1", "/status").status).isEqualTo(403);
  }

  @Test
  void allowListFromTheStatusSection() throws Exception {
    harness.initParams.put("status.allow", "198.51.100.0/24");
    start();
    assertThat(get("198.51.100.1", "/status").status).isEqualTo(200);
    assertThat(get("203.0.113.9", "/status").status).isEqualTo(403);
  }

  @Test
  void forwardedThroughAnUntrustedLocalProxyIsRefused() throws Exception {
    start();
    FilterHarness.Req req =
        new FilterHarness.Req()
            .servlet("overload-status", "/overload")
            .header("X-Forwarded-For", "203.0.113.9");
    req.pathInfo = "/status";
    FilterHarness.Res res = new FilterHarness.Res();
    servlet.service(req.build(), res.mock);
    assertThat(res.status).isEqualTo(403);
  }

  @Test
  void statusIsJsonThatFollowsTheEngine() throws Exception {
    start();
    search();
    search(); // the bucket (depth 1, 1/s) is empty: rejected
    FilterHarness.Res res = get("127.0.0.1", "/status");
    assertThat(res.contentType).isEqualTo("application/json");
    JsonNode root = new ObjectMapper().readTree(res.bodyText());
    JsonNode search = root.get("endpoints").get(0);
    assertThat(search.get("name").asText()).isEqualTo("search");
    JsonNode cls = search.get("classes").get(0);
    assertThat(cls.get("arrivals").asLong()).isEqualTo(2);
    assertThat(cls.get("outcomes").get("completed").asLong()).isEqualTo(1);
    assertThat(cls.get("outcomes").get("rejected").asLong()).isEqualTo(1);
    assertThat(cls.get("targetSeconds").asDouble()).isEqualTo(1.0);
  }

  @Test
  void metricsAreThePrometheusTextFormat() throws Exception {
    start();
    search();
    FilterHarness.Res res = get("::1", "/metrics");
    assertThat(res.contentType).startsWith("text/plain; version=0.0.4");
    assertThat(res.bodyText())
        .contains("# TYPE overload_arrivals_total counter")
        .contains("overload_arrivals_total{class=\"search\",endpoint=\"search\"} 1.0");
  }

  @Test
  void withoutTheDropwizardAndPrometheusBindingsMetricsSays404() throws Exception {
    harness.initParams.put("metrics.binding", "dropwizard");
    start();
    FilterHarness.Res res = get("::1", "/metrics");
    assertThat(res.status).isEqualTo(404);
    assertThat(res.bodyText()).contains("overload-metrics-prometheus");
  }

  @Test
  void dashboardAndItsAssetsComeFromTheClasspath() throws Exception {
    start();
    FilterHarness.Res page = get("127.0.0.1", "/");
    assertThat(page.contentType).startsWith("text/html");
    assertThat(page.bodyText())
        .contains("<script src=\"chart.umd.js\"></script>")
        .contains("<script src=\"dashboard.js\"></script>")
        .doesNotContain("http");
    assertThat(page.headers.get("Content-Security-Policy")).startsWith("default-src 'self'");
    FilterHarness.Res chart = get("127.0.0.1", "/chart.umd.js");
    assertThat(chart.contentType).startsWith("text/javascript");
    assertThat(chart.bodyText()).contains("Chart.js v4");
    assertThat(get("127.0.0.1", "/dashboard.js").bodyText()).contains("fetch('status'");
    assertThat(get("127.0.0.1", "/dashboard.css").contentType).startsWith("text/css");
    assertThat(get("127.0.0.1", "/nothing-here").status).isEqualTo(404);
    assertThat(get("127.0.0.1", "/../WEB-INF/web.xml").status).isEqualTo(404);
    FilterHarness.Res bare = get("127.0.0.1", null);
    assertThat(bare.headers.get("Location")).isEqualTo("/overload/");
  }

  @Test
  void withoutTheFilterTheStatusSays503() throws Exception {
    start();
    filter.destroy();
    filter = null;
    FilterHarness.Res res = get("127.0.0.1", "/status");
    assertThat(res.status).isEqualTo(503);
    assertThat(res.bodyText()).contains("filter is not running");
  }

  @Test
  void theFilterNeverShedsStatusRequests() throws Exception {
    start();
    search(); // takes the only token
    AtomicInteger passed = new AtomicInteger();
    for (int i = 0; i < 20; i++) {
      FilterHarness.Req req = new FilterHarness.Req().servlet("overload-status", "/overload");
      filter.doFilter(
          req.build(), new FilterHarness.Res().mock, (rq, rs) -> passed.incrementAndGet());
    }
    assertThat(passed).hasValue(20);
    assertThat(filter.runtime().engine().endpoints())
        .extracting(e -> e.name())
        .containsExactly("search");
  }

  @Test
  void stoppingTheFilterRemovesItsMetricsFromTheApplicationRegistry() throws Exception {
    com.codahale.metrics.MetricRegistry app = new com.codahale.metrics.MetricRegistry();
    app.counter("application.orders");
    harness.contextAttributes.put(Observability.REGISTRY_ATTRIBUTE, app);
    start();
    search();
    get("127.0.0.1", "/status"); // a status read registers what is new
    assertThat(app.getNames()).contains("overload.endpoint.search.class.search.arrivals");
    filter.destroy();
    filter = null;
    assertThat(app.getNames()).containsExactly("application.orders");
  }
}
