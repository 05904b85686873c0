package org.overloadcontrol.servlet;

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
import java.util.List;
import java.util.Map;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.FrameworkRoutes;
import org.overloadcontrol.config.OperatorConfigFile;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.engine.EndpointClass;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.metrics.Observability;
import org.overloadcontrol.pipeline.Exchange;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.pipeline.RequestPipeline;
import org.overloadcontrol.pipeline.Step;

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

  /** The servlet-context attribute holding the running {@link OverloadEngine}. */
  public static final String ENGINE_ATTRIBUTE = OverloadEngine.class.getName();

  /** Where the YAML file is looked for when no {@code configFile} init-param is given. */
  public static final String DEFAULT_CONFIG_FILE = "/WEB-INF/overload.yaml";

  private static final OverloadLog LOG = OverloadLog.get(OverloadFilter.class);
  private static final RejectionHandler DEFAULT_REJECTION = new DefaultRejectionHandler();

  /** System property naming an operator's YAML file layered over the web application's. */
  public static final String CONFIG_FILE_PROPERTY = OperatorConfigFile.PROPERTY;

  private final Ticker ticker;
  private final Clock wallClock;
  private final AdmissionListener listener;
  private volatile OverloadEngine engine;
  private OverloadConfig config;

  /** Carries out the engine's steps with the servlet API. */
  private ServletSteps steps;

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
  public OverloadFilter(
      Ticker ticker, Clock wallClock, AdmissionListener listener, Scheduler scheduler) {
    this.ticker = ticker;
    this.wallClock = java.util.Objects.requireNonNull(wallClock, "wallClock");
    this.listener = listener;
    this.givenScheduler = scheduler;
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    servletContext = filterConfig.getServletContext();
    ContainerLog.fallbackFor(servletContext); // replaced by the next start; see OverloadLog
    try {
      FilterConfiguration read = FilterConfiguration.read(filterConfig, DEFAULT_REJECTION);
      config = read.config();
      endpointByServlet = read.endpointByServlet();
      steps = new ServletSteps(read.rejectionHandler(), suspended);
      frameworkRoutes = read.frameworkRoutes();
    } catch (OverloadConfigException e) {
      ContainerLog.error(servletContext, e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    try {
      runtime =
          OverloadRuntime.builder(config)
              .ticker(ticker)
              .wallClock(wallClock)
              .scheduler(givenScheduler, "overload-control-" + filterConfig.getFilterName())
              .admissionListener(listener)
              .webAppResources(servletContext::getResourceAsStream)
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
    LOG.info(
        "overload-control: filter '{}' started ({} classes, {} configured endpoints{})",
        filterConfig.getFilterName(),
        config.classes().size(),
        config.endpoints().size(),
        config.enabled() ? "" : ", disabled");
  }

  /** Metrics, JMX, the overload log and the status servlet's data; see docs/observability.md. */
  private void startObservability() throws ServletException {
    try {
      observability =
          Observability.builder(engine)
              .scheduler(runtime.scheduler())
              .registry(servletContext.getAttribute(Observability.REGISTRY_ATTRIBUTE))
              .contextPath(servletContext.getContextPath())
              .bandwidth(runtime.bandwidth())
              .virtualQueue(runtime.virtualQueue().queue())
              .build();
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
    return runtime == null || runtime.bandwidth() == null
        ? List.of()
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
    if (engine == null
        || !enabled
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    if (req.getDispatcherType() != DispatcherType.REQUEST) {
      // Nothing to decide on a later dispatch, whatever the mapping: a suspended request was
      // admitted before its re-dispatch (see SuspendedRequest).
      ServletSteps.passThrough(request, response, chain);
      return;
    }
    if (req.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      takeover.alreadyControlled();
      ServletSteps.passThrough(request, response, chain);
      return;
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String servlet = mapping == null ? null : mapping.getServletName();
    ServletRequestView view = new ServletRequestView(request, clients);
    Exchange exchange;
    if (routesByServlet) {
      // No rule reads the request: its servlet says where it goes (one look-up).
      EndpointClass route = routes.route(servlet);
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
    steps.carry(exchange, request, response, chain);
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
