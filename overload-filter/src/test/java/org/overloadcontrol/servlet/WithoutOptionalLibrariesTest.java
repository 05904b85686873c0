package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletConfig;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.config.OptionalLibrary;
import org.overloadcontrol.internal.metrics.Observability;

/**
 * The filter as a WAR with only the filter runs it: no SnakeYAML, Commons Math, SLF4J, metrics
 * module or dashboard on the class path (this class runs in its own surefire execution that leaves them
 * out, see the pom). Init-params configure it; a YAML file or {@code virtualQueue.capacity: auto}
 * stops the start with the coordinates to add; the status works, the metrics and the dashboard
 * answer 404 naming their module.
 */
class WithoutOptionalLibrariesTest {

  private final FilterHarness harness = new FilterHarness();

  @Test
  void theLibrariesAreReallyAbsent() {
    assertThat(OptionalLibrary.SNAKEYAML.present()).isFalse();
    assertThat(OptionalLibrary.COMMONS_MATH.present()).isFalse();
    assertThat(new OptionalLibrary("com.codahale.metrics.MetricRegistry", "").present()).isFalse();
    assertThat(
            new OptionalLibrary("io.prometheus.metrics.model.registry.PrometheusRegistry", "")
                .present())
        .isFalse();
    assertThat(getClass().getResource("/org/overloadcontrol/servlet/dashboard/index.html"))
        .isNull();
    assertThat(new OptionalLibrary("org.slf4j.LoggerFactory", "").present()).isFalse();
  }

  @Test
  void withoutSlf4jTheLinesGoToTheContainersLogOnce() throws Exception {
    FilterConfig fc = harness.filterConfig();
    OverloadFilter filter =
        new OverloadFilter(harness.ticker, org.overloadcontrol.admission.AdmissionListener.NONE);
    filter.init(fc);
    jakarta.servlet.ServletContext context = fc.getServletContext();
    assertThat(OverloadLog.slf4jBound()).isFalse();
    OverloadLog.get("org.overloadcontrol.overload").info("endpoint '{}' is now shedding", "s");
    verify(context).log("endpoint 's' is now shedding");
    ContainerLog.warn(context, "a notice");
    verify(context, times(1)).log("a notice");
    filter.destroy();
  }

  @Test
  void theStatusWorksAndMetricsAndDashboardNameTheirModules() throws Exception {
    harness.servlets.put("overload-status", OverloadStatusServlet.class);
    FilterConfig fc = harness.filterConfig();
    OverloadFilter filter =
        new OverloadFilter(harness.ticker, org.overloadcontrol.admission.AdmissionListener.NONE);
    filter.init(fc);
    jakarta.servlet.ServletContext context = fc.getServletContext();
    ServletConfig sc = mock(ServletConfig.class);
    when(sc.getServletContext()).thenReturn(context);
    lenient().when(sc.getInitParameter(anyString())).thenReturn(null);
    OverloadStatusServlet servlet = new OverloadStatusServlet();
    servlet.init(sc);
    filter.doFilter(
        new FilterHarness.Req().build(), new FilterHarness.Res().mock, mock(FilterChain.class));

    assertThat(get(servlet, "/status").bodyText()).contains("\"arrivals\":1");
    FilterHarness.Res metrics = get(servlet, "/metrics");
    assertThat(metrics.status).isEqualTo(404);
    assertThat(metrics.bodyText()).contains("overload-metrics-prometheus");
    for (String asset : new String[] {"/", "/chart.umd.js"}) {
      FilterHarness.Res page = get(servlet, asset);
      assertThat(page.status).as(asset).isEqualTo(404);
      assertThat(page.bodyText()).as(asset).contains("overload-dashboard");
    }
    assertThat(
            ((Observability) harness.contextAttributes.get(Observability.ATTRIBUTE))
                .metrics()
                .recorder())
        .as("the no-op default")
        .isSameAs(org.overloadcontrol.metrics.MetricsRecorder.NONE);
    filter.destroy();
  }

  private static FilterHarness.Res get(OverloadStatusServlet servlet, String pathInfo)
      throws Exception {
    FilterHarness.Req req = new FilterHarness.Req().servlet("overload-status", "/overload");
    req.remote = "127.0.0.1";
    req.pathInfo = pathInfo;
    FilterHarness.Res res = new FilterHarness.Res();
    servlet.service(req.build(), res.mock);
    return res;
  }

  @Test
  void initParamsAloneConfigureTheFilter() throws Exception {
    harness.initParams.put("endpoints.s.target", "1s");
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/elsewhere");
    harness.initParams.put("virtualQueue.capacity", "10");
    OverloadFilter filter = harness.start();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());
    filter.destroy();
  }

  @Test
  void aYamlFileSaysToAddSnakeYaml() {
    harness.yaml = "endpoints:\n  s:\n    target: 1s\n";
    assertThatThrownBy(harness::start)
        .hasMessageContaining("/WEB-INF/overload.yaml")
        .hasMessageContaining("needs org.yaml:snakeyaml on the class path");
  }

  @Test
  void capacityAutoSaysToAddCommonsMath() {
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/s");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("virtualQueue.capacity")
        .hasMessageContaining("needs org.apache.commons:commons-math3 on the class path");
  }
}
