package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.QualityLevel;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.internal.degrade.DegradeMode;
import org.overloadcontrol.internal.engine.FakeScheduler;

/** {@code @Degradable} through the filter: settings, the request's quality, the static reader. */
class DegradableFilterTest {

  @Degradable(minQuality = 0.3)
  @ResponseTimeTarget("200ms")
  static final class SearchServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  @Degradable(withAdmissionControl = false)
  static final class NoTargetServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
  }

  private final FilterHarness harness = new FilterHarness();
  private final FakeScheduler scheduler = new FakeScheduler(harness.ticker);
  private ServletContext context;

  private OverloadFilter start() throws Exception {
    OverloadFilter filter = new OverloadFilter(harness.ticker, AdmissionListener.NONE, scheduler);
    FilterConfig config = harness.filterConfig();
    context = config.getServletContext();
    filter.init(config);
    return filter;
  }

  /** Passes one request to {@code servlet} that takes {@code millis}; returns its context. */
  private OverloadContext request(OverloadFilter filter, String servlet, long millis)
      throws Exception {
    AtomicReference<OverloadContext> seen = new AtomicReference<>();
    FilterChain chain =
        (rq, rs) -> {
          seen.set(Overload.context(rq).orElseThrow());
          harness.ticker.advance(Duration.ofMillis(millis));
        };
    filter.doFilter(
        new FilterHarness.Req().servlet(servlet, "/" + servlet).build(),
        new FilterHarness.Res().mock,
        chain);
    return seen.get();
  }

  /** Moves the clock one control period on and runs the engine's periodic task. */
  private void nextPeriod() {
    harness.ticker.advance(Duration.ofSeconds(1));
    scheduler.runDue();
  }

  @Test
  void annotationMakesTheEndpointDegradableWithItsMinimumAndCombinedMode() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    OverloadFilter filter = start();
    var settings = filter.runtime().engine().degradeSettings().endpoint("search");
    assertThat(settings.minQuality()).isEqualTo(0.3);
    assertThat(settings.mode()).isEqualTo(DegradeMode.COMBINED);
    assertThat(settings.targetNanos()).isEqualTo(Duration.ofMillis(200).toNanos());
  }

  @Test
  void slowRequestsLowerTheQualityThatLaterRequestsAndServiceCodeSee() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    OverloadFilter filter = start();
    OverloadContext first = request(filter, "search", 400);
    assertThat(first.quality()).isEqualTo(1.0);
    assertThat(first.qualityLevel()).isEqualTo(QualityLevel.FULL);
    assertThat(Overload.quality(context, "search")).isEqualTo(1.0);

    nextPeriod();
    assertThat(Overload.quality(context, "search")).isCloseTo(0.8, within(1e-12));
    assertThat(filter.quality("search")).isCloseTo(0.8, within(1e-12));
    OverloadContext second = request(filter, "search", 400);
    assertThat(second.quality()).isCloseTo(0.8, within(1e-12));
    assertThat(second.qualityLevel()).isEqualTo(QualityLevel.REDUCED);
  }

  @Test
  void aRequestKeepsTheQualityItWasAdmittedAt() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    OverloadFilter filter = start();
    request(filter, "search", 400);
    AtomicReference<double[]> seen = new AtomicReference<>();
    FilterChain chain =
        (rq, rs) -> {
          double before = Overload.quality(rq);
          // A control period ends while the request runs: the endpoint's quality moves, the
          // request's does not.
          nextPeriod();
          seen.set(
              new double[] {before, Overload.quality(rq), Overload.quality(context, "search")});
        };
    filter.doFilter(
        new FilterHarness.Req().servlet("search", "/search").build(),
        new FilterHarness.Res().mock,
        chain);
    assertThat(seen.get()[0]).isEqualTo(1.0);
    assertThat(seen.get()[1]).isEqualTo(1.0);
    assertThat(seen.get()[2]).isCloseTo(0.8, within(1e-12));
  }

  @Test
  void endpointsThatAreNotDegradableHaveFullQuality() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    OverloadFilter filter = start();
    OverloadContext other = request(filter, "other", 5000);
    nextPeriod();
    assertThat(request(filter, "other", 1).quality()).isEqualTo(1.0);
    assertThat(other.qualityLevel()).isEqualTo(QualityLevel.FULL);
    assertThat(Overload.quality(context, "other")).isEqualTo(1.0);
    assertThat(Overload.quality(context, "never-seen")).isEqualTo(1.0);
  }

  @Test
  void configurationOverridesTheAnnotationAndCanSwitchItOff() throws Exception {
    harness.servlets.put("search", SearchServlet.class);
    harness.yaml =
        "degrade:\n  endpoints:\n    search:\n      minQuality: 0.5\n" + "      mode: alone\n";
    OverloadFilter filter = start();
    var settings = filter.runtime().engine().degradeSettings().endpoint("search");
    assertThat(settings.minQuality()).isEqualTo(0.5);
    assertThat(settings.mode()).isEqualTo(DegradeMode.ALONE);

    FilterHarness off = new FilterHarness();
    off.servlets.put("search", SearchServlet.class);
    off.initParams.put("degrade.endpoints.search.enabled", "false");
    OverloadFilter filter2 =
        new OverloadFilter(off.ticker, AdmissionListener.NONE, new FakeScheduler(off.ticker));
    filter2.init(off.filterConfig());
    assertThat(filter2.runtime().engine().degradeSettings().endpoint("search")).isNull();
  }

  @Test
  void aDegradableEndpointWithoutTargetStopsTheFilter() {
    harness.servlets.put("lookup", NoTargetServlet.class);
    assertThatThrownBy(this::start)
        .isInstanceOf(ServletException.class)
        .hasMessageContaining("degrade.endpoints.lookup.")
        .hasMessageContaining("@Degradable on")
        .hasMessageContaining("no response-time target")
        .hasMessageContaining("endpoints.lookup.target");
  }

  @Test
  void noFilterMeansFullQuality() {
    ServletContext empty = org.mockito.Mockito.mock(ServletContext.class);
    assertThat(Overload.quality(empty, "search")).isEqualTo(1.0);
  }
}
