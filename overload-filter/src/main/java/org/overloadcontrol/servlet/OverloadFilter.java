package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.RequestPipeline;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.internal.pipeline.StepResponses;

/**
 * The drop-in Jakarta Servlet filter. Declared once in web.xml, it tags every request with its
 * arrival time, routes it to its endpoint's admission controller and class, and either lets it
 * run or answers 503 with {@code Retry-After}; when the response is complete (on
 * {@link AsyncListener#onComplete} for asynchronous requests) it reports the response time.
 *
 * <pre>
 * &lt;filter&gt;
 *   &lt;filter-name&gt;overload&lt;/filter-name&gt;
 *   &lt;filter-class&gt;org.overloadcontrol.servlet.OverloadFilter&lt;/filter-class&gt;
 *   &lt;async-supported&gt;true&lt;/async-supported&gt;
 * &lt;/filter&gt;
 * &lt;filter-mapping&gt;&lt;filter-name&gt;overload&lt;/filter-name&gt;&lt;url-pattern&gt;/*&lt;/url-pattern&gt;&lt;/filter-mapping&gt;
 * </pre>
 *
 * <p>Configuration, lowest precedence first: annotations on the registered servlets, the
 * filter's init-params, and a YAML file ({@code configFile} init-param, else
 * {@code /WEB-INF/overload.yaml} if present). Anything wrong stops {@link #init} with a
 * {@link ServletException} naming the key, the value and what is allowed.
 *
 * <p>The filter only translates: it reads the request into a {@link ServletRequestView}, asks
 * the engine's {@link RequestPipeline} for the request's first step, and carries it out with
 * the servlet API ({@link ServletSteps}, {@link SuspendedRequest}). It acts on the first
 * dispatch of a request only, so forwards, includes, error pages and async re-dispatches pass
 * through untouched, whatever dispatcher types it is mapped to.
 */
public class OverloadFilter implements Filter {

  /** Where the YAML file is looked for when no {@code configFile} init-param is given. */
  public static final String DEFAULT_CONFIG_FILE = "/WEB-INF/overload.yaml";

  /**
   * A servlet-context attribute (an {@link Integer}) a framework that starts the container sets
   * to its request threads when the filter cannot read them itself (Spring Boot's Tomcat, whose
   * JMX registry is off): the ceiling of {@code admission.maxLimit} is then taken from it.
   */
  public static final String CONTAINER_THREADS_ATTRIBUTE =
      "org.overloadcontrol.servlet.containerThreads";

  /** System property naming an operator's YAML file layered over the web application's. */
  public static final String CONFIG_FILE_PROPERTY = OperatorConfigFile.PROPERTY;

  private final Ticker ticker;
  private final Clock wallClock;
  private final AdmissionListener listener;
  private final Scheduler givenScheduler;

  /** What the package's tests change on the runtime's builder (the CPU clocks they read). */
  private UnaryOperator<OverloadRuntime.Builder> runtimeOptions = UnaryOperator.identity();

  /** Everything that exists from {@link #init} to {@link #destroy}; null outside. */
  private volatile RunningFilter running;

  /** The constructor the container uses: system ticker and wall clock, no listener. */
  public OverloadFilter() {
    this(Ticker.system(), AdmissionListener.NONE);
  }

  /** For tests and embedding: a given ticker and controller listener. */
  public OverloadFilter(Ticker ticker, AdmissionListener listener) {
    this(ticker, listener, null);
  }

  /**
   * For tests and embedding: a given ticker, listener and scheduler. A scheduler passed here
   * belongs to the caller; without one the filter starts its own timer thread and stops it in
   * {@link #destroy()}.
   */
  public OverloadFilter(Ticker ticker, AdmissionListener listener, Scheduler scheduler) {
    this(ticker, Clock.systemUTC(), listener, scheduler);
  }

  /**
   * For tests and embedding: as {@link #OverloadFilter(Ticker, AdmissionListener, Scheduler)},
   * with the wall clock that {@code X-Request-Start} values and virtual-queue tokens are
   * compared with (the Jetty handler's {@code setWallClock}).
   */
  public OverloadFilter(
      Ticker ticker, Clock wallClock, AdmissionListener listener, Scheduler scheduler) {
    this.ticker = ticker;
    this.wallClock = java.util.Objects.requireNonNull(wallClock, "wallClock");
    this.listener = listener;
    this.givenScheduler = scheduler;
  }

  /**
   * For the package's tests, before {@link #init}: what to change on the runtime's builder, such
   * as the CPU clocks the test reads from.
   */
  void runtimeOptions(UnaryOperator<OverloadRuntime.Builder> options) {
    this.runtimeOptions = java.util.Objects.requireNonNull(options, "options");
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    ContainerLog.fallbackFor(filterConfig.getServletContext()); // replaced by the next start
    running =
        RunningFilter.start(
            filterConfig, ticker, wallClock, listener, givenScheduler, runtimeOptions);
  }

  /**
   * Each endpoint's load now: its limit, the requests in flight and waiting, and its counts in
   * the configuration in force; empty before {@link #init} or after {@link #destroy}, and an
   * endpoint is in it from its first request on. The bandwidth groups and the virtual queue's
   * counters are in the status document and the metrics (docs/observability.md).
   */
  public List<EndpointSnapshot> endpointSnapshots() {
    RunningFilter r = running;
    return r == null ? List.of() : r.runtime().endpointSnapshots();
  }

  /**
   * The wait queues' execution permits ({@code queue.permits}); 0 without queues or when the
   * filter is not running.
   */
  public int queuePermits() {
    RunningFilter r = running;
    return r == null ? 0 : r.runtime().queuePermits();
  }

  /**
   * The current quality of {@code endpoint} in [0, 1], for code that has no request at hand (a
   * service class, a cache refresher; {@link Overload#quality(jakarta.servlet.ServletContext,
   * String)} reads the same without the filter); 1 when the filter is not running, or when the
   * endpoint is not degradable or has seen no request yet. It may change from one call to the
   * next: code serving a request reads the request's own ({@link Overload#quality(ServletRequest)}).
   */
  public double quality(String endpoint) {
    RunningFilter r = running;
    return r == null ? 1.0 : r.runtime().quality(endpoint);
  }

  /**
   * What runs while the filter runs (the engine and its features), or null outside {@link #init}
   * and {@link #destroy}: for the tests, which count the engine's outcomes.
   */
  OverloadRuntime runtime() {
    RunningFilter r = running;
    return r == null ? null : r.runtime();
  }

  /**
   * Reads the configuration again, every layer as at start, and puts it in force between
   * requests when it is valid as a whole; otherwise the running one stays in force
   * (docs/guide/reload.md). The filter also does this by itself when one of its YAML files on disk
   * changes.
   *
   * @throws IllegalStateException before {@link #init} or after {@link #destroy}
   */
  public ReloadResult reload() {
    RunningFilter r = running;
    if (r == null) {
      throw new IllegalStateException("overload-control: the filter is not running");
    }
    return r.reload();
  }

  /** The configuration version in force (1 at start), or 0 when the filter is not running. */
  public long configVersion() {
    RunningFilter r = running;
    return r == null ? 0 : r.runtime().configVersion();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    RunningFilter r = running;
    if (r == null
        || !r.enabled
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    r.virtualThreads.onRequest();
    if (req.getDispatcherType() != DispatcherType.REQUEST) {
      // Nothing to decide on a later dispatch, whatever the mapping: a suspended request was
      // admitted before its re-dispatch (see SuspendedRequest).
      ServletSteps.passThrough(request, response, chain);
      return;
    }
    if (req.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      r.takeover.alreadyControlled();
      ServletSteps.passThrough(request, response, chain);
      return;
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String servlet = mapping == null ? null : mapping.getServletName();
    RunningFilter.Routing g = r.routing;
    Exchange exchange = g.routes().start(new ServletRequestView(request, g.clients()), servlet);
    if (exchange == null || exchange.step().kind() == Step.Kind.PASS) {
      // A probe or a status page: never a permit, a wait or a refusal.
      chain.doFilter(req, res);
      return;
    }
    // A refusal resets the response, and these with it (ServletAnswers).
    StepResponses.ofRun(exchange, response::addHeader);
    if (exchange.countsBytes()) {
      response = new CountingResponse(response);
    }
    request.setAttribute(OverloadContext.ATTRIBUTE, exchange.context());
    r.steps.carry(exchange, request, response, chain);
  }

  /**
   * Stops the filter: every waiting request is answered 503 (the queues expire them), then the
   * filter's timer thread stops. Requests already running finish normally.
   */
  @Override
  public void destroy() {
    RunningFilter stopping = running;
    running = null;
    if (stopping != null) {
      stopping.stop();
    }
  }
}
