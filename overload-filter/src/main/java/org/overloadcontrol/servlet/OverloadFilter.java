package org.overloadcontrol.servlet;

import com.codahale.metrics.MetricRegistry;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.FrameworkRoutes;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OperatorConfigFile;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.engine.EndpointClass;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.metrics.Observability;
import org.overloadcontrol.pipeline.Exchange;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.pipeline.RequestPipeline;
import org.overloadcontrol.pipeline.Step;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>The filter only translates between the servlet API and the container-free
 * {@link OverloadEngine}; it acts on the first dispatch of a request only, so forwards,
 * includes, error pages and async re-dispatches pass through untouched.
 */
public class OverloadFilter implements Filter {

  /** The servlet-context attribute holding the running {@link OverloadEngine}. */
  public static final String ENGINE_ATTRIBUTE = OverloadEngine.class.getName();
  /** Where the YAML file is looked for when no {@code configFile} init-param is given. */
  public static final String DEFAULT_CONFIG_FILE = "/WEB-INF/overload.yaml";

  private static final Logger LOG = LoggerFactory.getLogger(OverloadFilter.class);
  private static final RejectionHandler DEFAULT_REJECTION = new DefaultRejectionHandler();
  private static final long ASYNC_TIMEOUT_MARGIN_MILLIS = 30_000L;
  /** System property naming an operator's YAML file layered over the web application's. */
  public static final String CONFIG_FILE_PROPERTY = OperatorConfigFile.PROPERTY;

  private final Ticker ticker;
  private final Clock wallClock;
  private final AdmissionListener listener;
  private volatile OverloadEngine engine;
  private OverloadConfig config;
  private RejectionHandler rejectionHandler;
  /** The engine's request life cycle; the filter carries out its steps. */
  private RequestPipeline pipeline;
  private ClientAddressResolver clients;
  private Map<String, String> endpointByServlet = Map.of();
  private ServletContext servletContext;
  private final Scheduler givenScheduler;
  /** Owns the engine, the features and the timers; see {@link OverloadRuntime}. */
  private OverloadRuntime runtime;
  /** Requests suspended (delayed, waiting, or async) whose outcome is not settled yet. */
  private final SuspendedRequest.Registry suspended = new SuspendedRequest.Registry();
  private Observability observability;
  /** What a framework module left in {@link FrameworkRoutes#ATTRIBUTE}, else none. */
  private FrameworkRoutes frameworkRoutes = FrameworkRoutes.NONE;
  /** Says once that a layer in front (the Jetty handler) controls the requests instead. */
  private TakeoverNotice takeover;
  /** Set in {@link #init} with the engine; see {@link ServletRoutes}. */
  private ServletRoutes routes;
  // Copies, made in init, of what every request asks of the configuration: read here, they
  // cost no look-up through the objects that hold them (in a server each object a request
  // touches tends to be a cache miss, docs/performance.md; too small a gain to measure alone).
  private boolean enabled;
  private boolean routesByServlet;

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
  public OverloadFilter(Ticker ticker, Clock wallClock, AdmissionListener listener,
      Scheduler scheduler) {
    this.ticker = ticker;
    this.wallClock = java.util.Objects.requireNonNull(wallClock, "wallClock");
    this.listener = listener;
    this.givenScheduler = scheduler;
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    servletContext = filterConfig.getServletContext();
    try {
      FilterConfiguration read = FilterConfiguration.read(filterConfig, DEFAULT_REJECTION);
      config = read.config();
      endpointByServlet = read.endpointByServlet();
      rejectionHandler = read.rejectionHandler();
      frameworkRoutes = read.frameworkRoutes();
    } catch (OverloadConfigException e) {
      ContainerLog.error(servletContext, e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    try {
      runtime = OverloadRuntime.builder(config).ticker(ticker).wallClock(wallClock)
          .scheduler(givenScheduler, "overload-control-" + filterConfig.getFilterName())
          .admissionListener(listener).webAppResources(servletContext::getResourceAsStream)
          .frameworkRoutes(frameworkRoutes)
          .start();
    } catch (OverloadConfigException e) {
      ContainerLog.error(servletContext, e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    engine = runtime.engine();
    pipeline = runtime.pipeline();
    clients = pipeline.intake().clients();
    takeover = new TakeoverNotice(servletContext, filterConfig.getFilterName());
    AsyncSupportNotice.atStart(servletContext, engine.queueSettings());
    servletContext.setAttribute(ENGINE_ATTRIBUTE, engine);
    startObservability();
    LOG.info("overload-control: filter '{}' started ({} classes, {} configured endpoints{})",
        filterConfig.getFilterName(), config.classes().size(), config.endpoints().size(),
        config.enabled() ? "" : ", disabled");
  }

  /** Metrics, JMX, the overload log and the status servlet's data; see docs/observability.md. */
  private void startObservability() throws ServletException {
    Object registry = servletContext.getAttribute(Observability.REGISTRY_ATTRIBUTE);
    if (registry != null && !(registry instanceof MetricRegistry)) {
      LOG.warn("overload-control: context attribute {} is a {}, not a MetricRegistry visible to"
          + " the filter; using a registry of its own", Observability.REGISTRY_ATTRIBUTE,
          registry.getClass().getName());
    }
    try {
      observability = Observability.builder(engine).scheduler(runtime.scheduler())
          .registry(registry instanceof MetricRegistry r ? r : null)
          .contextPath(servletContext.getContextPath())
          .bandwidth(runtime.bandwidth()).virtualQueue(runtime.virtualQueue().queue()).build();
    } catch (OverloadConfigException e) {
      destroy();
      ContainerLog.error(servletContext, e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    servletContext.setAttribute(Observability.ATTRIBUTE, observability);
    routes = new ServletRoutes(engine, endpointByServlet, StatusServlets.names(servletContext));
    routesByServlet = engine.routesByEndpointOnly();
    enabled = config.enabled();
  }

  /** Bandwidth groups as measured now; empty when bandwidth shares are not configured. */
  public List<org.overloadcontrol.bandwidth.GroupSnapshot> bandwidthSnapshot() {
    return runtime == null || runtime.bandwidth() == null ? List.of()
        : runtime.bandwidth().snapshot();
  }

  /** The running engine, or null before {@link #init}. */
  public OverloadEngine engine() {
    return engine;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    OverloadEngine engine = this.engine;
    if (engine == null || !enabled
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    if (req.getDispatcherType() != DispatcherType.REQUEST) {
      // Nothing to decide on a later dispatch, whatever the mapping: a suspended request was
      // admitted before its re-dispatch (see SuspendedRequest).
      passThrough(request, response, chain);
      return;
    }
    if (req.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      takeover.alreadyControlled();
      passThrough(request, response, chain);
      return;
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String servlet = mapping == null ? null : mapping.getServletName();
    ServletRequestView view = new ServletRequestView(request, clients);
    Exchange exchange;
    if (routesByServlet) {
      // No rule reads the request: its servlet says where it goes (one look-up).
      EndpointClass route = routes.stage(servlet);
      exchange = route == null ? null : pipeline.start(view, route);
    } else {
      exchange = routes.isStatus(servlet) ? null : pipeline.start(view, routes.endpointOf(servlet));
    }
    if (exchange == null || exchange.step().kind() == Step.Kind.PASS) {
      // A probe or a status page: never a permit, a wait or a refusal.
      chain.doFilter(req, res);
      return;
    }
    for (String cookie : exchange.setCookies()) {
      response.addHeader("Set-Cookie", cookie);
    }
    if (exchange.countsBytes()) {
      response = new CountingResponse(response);
    }
    request.setAttribute(OverloadContext.ATTRIBUTE, exchange.tag());
    Step step = exchange.step();
    switch (step.kind()) {
      case RUN -> run(request, response, chain, exchange);
      case DELAY, WAIT -> hold(request, response, exchange);
      case ANSWER -> {
        try {
          ServletAnswers.write(response, step.answer());
        } finally {
          finish(response, exchange, step.outcome());
        }
      }
      default -> refuse(request, response, exchange, step.outcome());
    }
  }

  /** Reports the outcome once, with the bytes counted when a feature measures them. */
  private static void finish(HttpServletResponse response, Exchange exchange, Outcome outcome) {
    exchange.finish(outcome,
        response instanceof CountingResponse counting ? counting.byteCount() : -1L);
  }

  /**
   * Suspends a request the engine holds (a bandwidth delay or a wait for a permit) without
   * holding the container's thread; {@link SuspendedRequest} carries out the engine's later
   * step.
   */
  private void hold(HttpServletRequest request, HttpServletResponse response, Exchange exchange)
      throws IOException, ServletException {
    AsyncContext async;
    SuspendedRequest held;
    try {
      async = request.isAsyncStarted() ? request.getAsyncContext()
          : request.startAsync(request, response);
      // The engine's timers end the hold; the container's timeout is only a safety net, set
      // later so that it never races them.
      async.setTimeout(TimeUnit.NANOSECONDS.toMillis(exchange.heldAtMostNanos())
          + ASYNC_TIMEOUT_MARGIN_MILLIS);
      held = SuspendedRequest.held(exchange, async, request, response, this::answerRefusal,
          suspended);
      async.addListener(held);
    } catch (IllegalStateException e) {
      // The container would not suspend the request (it is stopping, or the response is
      // already committed): refuse it now rather than leave it without an outcome.
      refuse(request, response, exchange, exchange.notCarried("no-async").outcome());
      return;
    }
    request.setAttribute(SuspendedRequest.ATTRIBUTE, held);
    exchange.hold(held);
  }

  /**
   * A dispatch after the first (async, forward, include, error): run it untouched, but note an
   * exception from a resumed request so its completion counts as failed.
   */
  private static void passThrough(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain) throws IOException, ServletException {
    try {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      if (request.getAttribute(SuspendedRequest.ATTRIBUTE) instanceof SuspendedRequest q) {
        q.markFailed();
      }
      throw e;
    }
  }

  /** Runs the application for an admitted request and reports its completion. */
  private void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
      Exchange exchange) throws IOException, ServletException {
    Outcome outcome = Outcome.FAILED;
    try {
      chain.doFilter(request, response);
      outcome = Outcome.COMPLETED;
      if (request.isAsyncStarted()) {
        // The response is not done: its time and outcome are reported when it completes.
        SuspendedRequest running = null;
        try {
          AsyncContext async = request.getAsyncContext();
          running = SuspendedRequest.running(exchange, async, request, response,
              this::answerRefusal, suspended);
          async.addListener(running);
          outcome = null;
        } catch (IllegalStateException e) {
          // The async cycle already ended (completed on another thread, or the container is
          // stopping): nothing will call the listener, so the outcome is settled here.
          if (running != null) {
            running.forget();
          }
        }
      }
    } finally {
      if (outcome != null) {
        finish(response, exchange, outcome);
      }
    }
  }

  private void refuse(HttpServletRequest request, HttpServletResponse response,
      Exchange exchange, Outcome outcome) {
    try {
      answerRefusal(request, response, exchange);
    } finally {
      finish(response, exchange, outcome);
    }
  }

  /** Answers a refused or expired request through the rejection handler (never hangs). */
  private void answerRefusal(HttpServletRequest request, HttpServletResponse response,
      Exchange exchange) {
    RequestTag tag = exchange.tag();
    String reason = tag.reason() == null ? Rejection.ADMISSION_RATE : tag.reason();
    Rejection rejection = new Rejection(tag.endpoint(), tag.requestClass(), reason,
        Duration.ofNanos(tag.retryAfterNanos()));
    try {
      rejectionHandler.reject(request, response, rejection);
    } catch (IOException e) {
      // Almost always a client that reset its connection while its 503 was written: nothing
      // more can reach it, and a stack trace at warn for each would let any client flood the
      // log (measured: 258 in one chaos run).
      LOG.debug("overload-control: could not write a refusal: {}", e.toString());
    } catch (ServletException | RuntimeException e) {
      LOG.warn("overload-control: rejection handler {} failed; sending the default 503",
          rejectionHandler.getClass().getName(), e);
      if (!response.isCommitted()) {
        // A handler that failed must not leave the client without an answer.
        try {
          DEFAULT_REJECTION.reject(request, response, rejection);
        } catch (IOException | ServletException | RuntimeException again) {
          LOG.debug("overload-control: could not write the default refusal: {}",
              again.toString());
        }
      }
    }
  }

  /** One request's trouble at the stop must not keep the others from their outcome. */
  private static void settleSafely(Runnable settle) {
    try {
      settle.run();
    } catch (RuntimeException e) {
      LOG.debug("overload-control: settling a request at the stop failed", e);
    }
  }

  /**
   * Stops the filter: every waiting request is answered 503 (the queues expire them), then the
   * filter's timer thread stops. Requests already running finish normally.
   */
  @Override
  public void destroy() {
    OverloadEngine stopping = engine;
    engine = null;
    if (observability != null) {
      observability.close();
      if (servletContext.getAttribute(Observability.ATTRIBUTE) == observability) {
        servletContext.removeAttribute(Observability.ATTRIBUTE);
      }
      observability = null;
    }
    suspended.stop();
    if (stopping != null) {
      // Cuts every delay short and expires every waiting request, each answered 503; running
      // ones are left alone.
      runtime.shutdown();
      for (SuspendedRequest s : suspended.snapshot()) {
        settleSafely(s::settleRunningAtShutdown);
      }
      if (servletContext != null && servletContext.getAttribute(ENGINE_ATTRIBUTE) == stopping) {
        servletContext.removeAttribute(ENGINE_ATTRIBUTE);
      }
    }
    if (runtime != null) {
      runtime.close();
    }
  }
}
