package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.FilterChain;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Health, readiness and metrics probes pass the filter untouched while the endpoint that
 * serves them refuses everything else: no permit, no wait, no refusal, no count.
 */
class BypassFilterTest {

  private final FilterHarness harness = new FilterHarness();
  private final List<Boolean> underControl = new ArrayList<>();
  private final FilterChain chain = (rq, rs) -> underControl.add(Overload.context(rq).isPresent());

  private OverloadFilter refusingFilter() throws Exception {
    harness.initParams.put("admission.controller", "rate"); // an instant refusal by the bucket
    harness.initParams.put("endpoints.s.target", "100ms");
    harness.initParams.put("controller.initialRate", "0.1");
    OverloadFilter filter = harness.start();
    // The bucket's one token goes to the first request; the next would be refused.
    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    assertThat(underControl).containsExactly(true);
    underControl.clear();
    return filter;
  }

  @Test
  void theDefaultProbePathsPassUntouchedWhileTheirEndpointRefuses() throws Exception {
    OverloadFilter filter = refusingFilter();
    long arrivals = filter.runtime().engine().routes().route("s", null).arrivalCount();
    for (String probe :
        List.of(
            "/healthz",
            "/readyz",
            "/livez",
            "/metrics",
            "/actuator/health",
            "/actuator/health/readiness",
            "/actuator/prometheus")) {
      filter.doFilter(
          new FilterHarness.Req().servlet("s", probe).build(), new FilterHarness.Res().mock, chain);
    }
    assertThat(underControl).hasSize(7).containsOnly(false);
    assertThat(filter.runtime().engine().routes().route("s", null).arrivalCount())
        .isEqualTo(arrivals);
  }

  @Test
  void configuredPathsReplaceTheDefaults() throws Exception {
    harness.initParams.put("bypass.paths", "/ping, /status/*");
    OverloadFilter filter = refusingFilter();
    for (String path : List.of("/ping", "/status/db", "/healthz")) {
      filter.doFilter(
          new FilterHarness.Req().servlet("s", path).build(), new FilterHarness.Res().mock, chain);
    }
    // The third, no longer a probe path, is refused like any request.
    assertThat(underControl).containsExactly(false, false);
  }

  @Test
  void noneControlsProbesLikeAnyRequest() throws Exception {
    harness.initParams.put("bypass.paths", "none");
    OverloadFilter filter = refusingFilter();
    filter.doFilter(
        new FilterHarness.Req().servlet("s", "/healthz").build(),
        new FilterHarness.Res().mock,
        chain);
    assertThat(underControl).isEmpty();
  }

  @Test
  void aBadPatternOrKeyStopsTheFilterNamingIt() {
    harness.initParams.put("bypass.paths", "/health*");
    assertThatThrownBy(harness::start)
        .hasMessageContaining("bypass.paths")
        .hasMessageContaining("/health*");
    FilterHarness other = new FilterHarness();
    other.initParams.put("bypass.path", "/ping");
    assertThatThrownBy(other::start).hasMessageContaining("bypass.path");
  }
}
