package org.overloadcontrol.benchmarks;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.MappingMatch;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.servlet.OverloadFilter;
import org.springframework.mock.web.MockFilterConfig;
import org.springframework.mock.web.MockHttpServletMapping;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;

/**
 * The servlet filter's whole per-request work ({@code OverloadFilter.doFilter}: the request
 * view, the pipeline's start (bypass check, route, tag, admission), the request attribute, the
 * application's run, the finish), for {@code GET /product/42} with a target, in two forms:
 * a WAR whose servlet names the endpoint, and a Spring Boot application whose one
 * {@code DispatcherServlet} serves 16 handler methods, the endpoint decided by the routes the
 * starter hands the filter ({@link FrameworkRouting#shopRoutes()}). Issue 20's bar: the Spring
 * form within 10 % of the WAR form. The requests and contexts are Spring's servlet stand-ins,
 * reused across calls (the request's attribute is removed after each), and the application does
 * nothing, so the figure is the filter's own work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class FilterPath {

  private static final FilterChain APPLICATION = (request, response) -> {};

  private OverloadFilter war;
  private OverloadFilter spring;
  private MockHttpServletRequest warRequest;
  private MockHttpServletRequest springRequest;
  private final MockHttpServletResponse response = new MockHttpServletResponse();

  @Setup(Level.Trial)
  public void setUp() throws ServletException {
    war = filter(context(Engines.CONTROLLED), "controlled");
    warRequest = request(Engines.CONTROLLED);
    MockServletContext springContext = context("dispatcherServlet");
    springContext.setAttribute(FrameworkRoutes.ATTRIBUTE, FrameworkRouting.shopRoutes().build());
    spring = filter(springContext, "controlled");
    springRequest = request("dispatcherServlet");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    war.destroy();
    spring.destroy();
  }

  /** A WAR: the request's servlet is its endpoint. */
  @Benchmark
  public Object warServlet() throws IOException, ServletException {
    return once(war, warRequest);
  }

  /** Spring Boot under the starter: the routes decide the endpoint. */
  @Benchmark
  public Object springRoutes() throws IOException, ServletException {
    return once(spring, springRequest);
  }

  private Object once(OverloadFilter filter, MockHttpServletRequest request)
      throws IOException, ServletException {
    filter.doFilter(request, response, APPLICATION);
    Object context = request.getAttribute(OverloadContext.ATTRIBUTE);
    request.removeAttribute(OverloadContext.ATTRIBUTE);
    return context;
  }

  /** A filter whose endpoint {@code endpoint} has a target, under the default controller. */
  private static OverloadFilter filter(MockServletContext context, String endpoint)
      throws ServletException {
    MockFilterConfig config = new MockFilterConfig(context, "overload");
    config.addInitParameter("endpoints." + endpoint + ".target", "1s");
    OverloadFilter filter = new OverloadFilter();
    filter.init(config);
    return filter;
  }

  /** {@code GET /product/42} to {@code servlet}, mapped at the path (no path info). */
  private static MockHttpServletRequest request(String servlet) {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/product/42");
    request.setServletPath("/product/42");
    request.setHttpServletMapping(
        new MockHttpServletMapping("product/42", "/", servlet, MappingMatch.DEFAULT));
    return request;
  }

  /** A servlet context with one servlet, {@code servlet}. */
  private static MockServletContext context(String servlet) {
    ServletRegistration registration = new OneServlet(servlet);
    return new MockServletContext() {
      @Override
      public Map<String, ? extends ServletRegistration> getServletRegistrations() {
        return Map.of(servlet, registration);
      }
    };
  }

  /** The registration of a plain servlet, as a container reports it. */
  private record OneServlet(String name) implements ServletRegistration {
    @Override
    public Set<String> addMapping(String... urlPatterns) {
      return Set.of();
    }

    @Override
    public Collection<String> getMappings() {
      return List.of("/");
    }

    @Override
    public String getRunAsRole() {
      return null;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getClassName() {
      return "jakarta.servlet.http.HttpServlet";
    }

    @Override
    public boolean setInitParameter(String key, String value) {
      return false;
    }

    @Override
    public String getInitParameter(String key) {
      return null;
    }

    @Override
    public Set<String> setInitParameters(Map<String, String> parameters) {
      return Set.of();
    }

    @Override
    public Map<String, String> getInitParameters() {
      return Map.of();
    }
  }
}
