package org.overloadcontrol.servlet;

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
import org.overloadcontrol.classify.ArrivalTime;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.FrameworkRoutes;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OperatorConfigFile;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.engine.EndpointClass;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RequestIntake;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.metrics.Observability;
import org.overloadcontrol.pipeline.Exchange;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.queue.QueueSettings;
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
  /** Request attribute holding the request's {@link Exchange} when a feature measures it. */
  static final String EXCHANGE_ATTRIBUTE = Exchange.class.getName();
  /** System property naming an operator's YAML file layered over the web application's. */
  public static final String CONFIG_FILE_PROPERTY = OperatorConfigFile.PROPERTY;

  private final Ticker ticker;
  private final Clock wallClock;
  private final AdmissionListener listener;
  private volatile OverloadEngine engine;
  private OverloadConfig config;
  private RejectionHandler rejectionHandler;
  private ArrivalTime arrivalTime;
  private RequestIntake intake;
  private ClientAddressResolver clients;
  private Map<String, String> endpointByServlet = Map.of();
  private ServletContext servletContext;
  private final Scheduler givenScheduler;
  /** Owns the engine, the features and the timers; see {@link OverloadRuntime}. */
  private OverloadRuntime runtime;
  /** The engine after {@link #destroy()}, so late completions still settle their outcome. */
  private volatile OverloadEngine stoppedEngine;
  private VirtualQueueGate virtualQueue;
  private BandwidthGate bandwidth;
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
  private boolean trustsProxies;
  private boolean virtualQueueOn;
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
    ContainerLog.fallbackFor(servletContext); // replaced by the next start; see OverloadLog
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
    clients = new ClientAddressResolver(config.trustedProxies());
    arrivalTime = new ArrivalTime(ticker, wallClock, config.requestStartMaxAgeNanos());
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
    virtualQueue = new VirtualQueueGate(runtime.virtualQueue(), clients);
    bandwidth = runtime.bandwidth() == null ? null
        : new BandwidthGate(runtime.bandwidth(), clients);
    intake = new RequestIntake(engine, clients, arrivalTime);
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
    try {
      observability = Observability.builder(engine).scheduler(runtime.scheduler())
          .registry(servletContext.getAttribute(Observability.REGISTRY_ATTRIBUTE))
          .contextPath(servletContext.getContextPath())
          .bandwidth(bandwidth == null ? null : bandwidth.shaper())
          .virtualQueue(virtualQueue.queue()).build();
    } catch (OverloadConfigException e) {
      destroy();
      ContainerLog.error(servletContext, e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    servletContext.setAttribute(Observability.ATTRIBUTE, observability);
    routes = new ServletRoutes(engine, endpointByServlet, StatusServlets.names(servletContext));
    trustsProxies = clients.trustsAnyProxy();
    virtualQueueOn = virtualQueue.enabled();
    routesByServlet = engine.routesByEndpointOnly();
    enabled = config.enabled();
  }

  /** Bandwidth groups as measured now; empty when bandwidth shares are not configured. */
  public List<org.overloadcontrol.bandwidth.GroupSnapshot> bandwidthSnapshot() {
    return bandwidth == null ? List.of() : bandwidth.shaper().snapshot();
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
    if (engine.bypasses(ServletRequestAttributes.pathOf(request))) {
      // A health, readiness or metrics probe: never a permit, a wait or a refusal.
      chain.doFilter(req, res);
      return;
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String servlet = mapping == null ? null : mapping.getServletName();
    if (req.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      takeover.alreadyControlled();
      passThrough(request, response, chain);
      return;
    }
    // The peer address is built (a new string per call in Jetty) only when a trusted proxy
    // could make it matter; classification rules on the client read it lazily.
    String peer = trustsProxies ? request.getRemoteAddr() : null;
    RequestTag tag;
    if (routesByServlet) {
      // No rule reads the request: its servlet says where it goes (one look-up).
      EndpointClass stage = routes.stage(servlet);
      if (stage == null) {
        passThrough(request, response, chain);
        return;
      }
      tag = intake.tag(stage, peer,
          peer == null ? null : new ServletRequestAttributes(request, clients));
    } else {
      if (routes.isStatus(servlet)) {
        passThrough(request, response, chain);
        return;
      }
      tag = intake.tag(routes.endpointOf(servlet), peer,
          new ServletRequestAttributes(request, clients));
    }
    if (virtualQueueOn || bandwidth != null) {
      // Features that measure completions: one Exchange reports to each of them, once.
      request.setAttribute(EXCHANGE_ATTRIBUTE, new Exchange(engine, tag,
          virtualQueueOn ? virtualQueue.frontEnd() : null));
    }
    // 1. The virtual queue: a known wait instead of an error (WebQ).
    if (virtualQueueOn) {
      VirtualQueueGate.Verdict verdict = virtualQueue.gate(request, response);
      if (verdict == VirtualQueueGate.Verdict.PASS
          && request.getAttribute(VirtualQueueGate.TYPE_ATTRIBUTE) instanceof String type) {
        exchange(request).passedQueue(type);
      }
      if (verdict != VirtualQueueGate.Verdict.PASS) {
        finish(request, tag, verdict == VirtualQueueGate.Verdict.WAIT ? Outcome.REDIRECTED
            : Outcome.REJECTED);
        return;
      }
    }
    // Sessions (Cherkasova & Phaal): a new session's first request is the one refused.
    if (engine.sessions() != null && SessionStep.refused(engine, request, response, tag)) {
      refuse(request, response, tag, Outcome.REJECTED);
      return;
    }
    // 2. Bandwidth shares (Li & Jamin): refuse, or delay on a timer, a group over its share.
    if (bandwidth != null && bandwidth.shaper().settings().shapes(
        ServletRequestAttributes.pathOf(request))) {
      ShapingDecision shaping = bandwidth.decide(request);
      if (shaping.kind() == ShapingDecision.Kind.REFUSE) {
        try {
          bandwidth.refuse(request, response, shaping);
        } finally {
          finish(request, tag, Outcome.REJECTED);
        }
        return;
      }
      exchange(request).shaped(shaping.ticket());
      CountingResponse counting = new CountingResponse(response);
      request.setAttribute(CountingResponse.ATTRIBUTE, counting);
      response = counting;
      if (shaping.kind() == ShapingDecision.Kind.DELAY) {
        delay(engine, request, response, tag, shaping);
        return;
      }
    }
    // 3. Admission, and a permit or a place in the wait queues.
    admit(engine, request, response, chain, tag);
  }

  private void admit(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, FilterChain chain, RequestTag tag)
      throws IOException, ServletException {
    switch (engine.arrive(tag)) {
      case ADMIT -> run(request, response, chain, tag);
      case WAIT -> waitForPermit(engine, request, response, chain, tag);
      case REJECT -> refuse(request, response, tag, Outcome.REJECTED);
    }
  }

  /**
   * Reports a request's outcome: to the engine once, and then to the features that measure
   * completions (bandwidth measurement, the virtual queue's capacity estimator).
   */
  void finish(HttpServletRequest request, RequestTag tag, Outcome outcome) {
    finisher(request).finish(tag, outcome);
  }

  /**
   * How this request's outcome is reported, looked up now, on the request's thread, so that a
   * later report need not read the request (see {@link SuspendedRequest.Finisher}).
   */
  private SuspendedRequest.Finisher finisher(HttpServletRequest request) {
    // Attribute look-ups only for the features in use: on the fast path of a filter with
    // admission alone this is one engine call (measured: the look-ups cost a few per cent of
    // a trivial servlet's throughput).
    if ((virtualQueueOn || bandwidth != null)
        && request.getAttribute(EXCHANGE_ATTRIBUTE) instanceof Exchange exchange) {
      CountingResponse counting =
          request.getAttribute(CountingResponse.ATTRIBUTE) instanceof CountingResponse c
          ? c : null;
      return (tag, outcome) -> exchange.finish(outcome,
          counting == null ? -1L : counting.byteCount());
    }
    return (tag, outcome) -> engine(tag).complete(tag, outcome, -1L);
  }

  private static Exchange exchange(HttpServletRequest request) {
    return (Exchange) request.getAttribute(EXCHANGE_ATTRIBUTE);
  }

  private OverloadEngine engine(RequestTag tag) {
    OverloadEngine current = engine;
    return current != null ? current : stoppedEngine;
  }

  /**
   * Holds a request of a group over its bandwidth share for its delay: suspended on the filter's
   * timer, never a sleeping thread. A chain that cannot go async is refused with 429 instead.
   */
  private void delay(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, RequestTag tag, ShapingDecision shaping)
      throws IOException, ServletException {
    if (!request.isAsyncSupported()) {
      ShapingDecision refusal = new ShapingDecision(ShapingDecision.Kind.REFUSE, 0, 429,
          shaping.delayNanos(), ShapingDecision.STANDBY_FULL, shaping.ticket());
      try {
        bandwidth.refuse(request, response, refusal);
      } finally {
        finish(request, tag, Outcome.REJECTED);
      }
      return;
    }
    AsyncContext async;
    try {
      async = request.startAsync(request, response);
    } catch (IllegalStateException e) {
      // The container would not suspend it (stopping, or already committed): refuse it now
      // rather than leave it without an outcome.
      engine.refuse(tag, "no-async");
      refuse(request, response, tag, Outcome.REJECTED);
      return;
    }
    // The timer ends the delay; the container's timeout is only a safety net, long enough for
    // a wait in the queues after the delay too.
    async.setTimeout(TimeUnit.NANOSECONDS.toMillis(shaping.delayNanos()
        + engine.queueSettings().longestMaxWaitNanos()) + ASYNC_TIMEOUT_MARGIN_MILLIS);
    request.setAttribute(OverloadContext.ATTRIBUTE, tag);
    SuspendedRequest delayed = SuspendedRequest.delayed(runtime, tag, async, request, response,
        this::answerRefusal, finisher(request), suspended, shaping);
    request.setAttribute(SuspendedRequest.ATTRIBUTE, delayed);
    async.addListener(delayed);
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
      RequestTag tag) throws IOException, ServletException {
    request.setAttribute(OverloadContext.ATTRIBUTE, tag);
    Outcome outcome = Outcome.FAILED;
    try {
      chain.doFilter(request, response);
      outcome = Outcome.COMPLETED;
      if (request.isAsyncStarted()) {
        // The response is not done: its time and outcome are reported when it completes.
        SuspendedRequest running = null;
        try {
          AsyncContext async = request.getAsyncContext();
          running = SuspendedRequest.running(engine(tag), tag, async, request, response,
              this::answerRefusal, finisher(request), suspended);
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
        finish(request, tag, outcome);
      }
    }
  }

  /**
   * An admitted request found no free execution permit: suspend it without holding the
   * container's thread and queue it; it is re-dispatched when a permit is held for it. A chain
   * that cannot go async waits on its thread (bounded) or is refused, by configuration.
   */
  private void waitForPermit(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, FilterChain chain, RequestTag tag)
      throws IOException, ServletException {
    if (request.isAsyncSupported()) {
      request.setAttribute(OverloadContext.ATTRIBUTE, tag);
      AsyncContext async;
      SuspendedRequest queued;
      try {
        async = request.isAsyncStarted() ? request.getAsyncContext()
            : request.startAsync(request, response);
        // The filter's own timer expires the request at its deadline; the container's timeout
        // is only a safety net, set later so that it never races the timer.
        async.setTimeout(TimeUnit.NANOSECONDS.toMillis(
            engine.queueSettings().longestMaxWaitNanos()) + ASYNC_TIMEOUT_MARGIN_MILLIS);
        queued = SuspendedRequest.waiting(engine, tag, async, request, response,
            this::answerRefusal, finisher(request), suspended);
        async.addListener(queued);
      } catch (IllegalStateException e) {
        // The container would not suspend the request (it is stopping, or the response is
        // already committed): refuse it now rather than leave it without an outcome.
        engine.refuse(tag, "no-async");
        refuse(request, response, tag, Outcome.REJECTED);
        return;
      }
      request.setAttribute(SuspendedRequest.ATTRIBUTE, queued);
      queued.enqueue();
      return;
    }
    if (engine.queueSettings().nonAsync() == QueueSettings.NonAsync.REJECT) {
      engine.refuse(tag, "no-async");
      refuse(request, response, tag, Outcome.REJECTED);
      return;
    }
    BlockingWait wait = new BlockingWait();
    if (!engine.enqueue(tag, wait)) {
      refuse(request, response, tag, Outcome.REJECTED);
      return;
    }
    if (wait.await(engine, tag)) {
      run(request, response, chain, tag);
    } else {
      refuse(request, response, tag, Outcome.EXPIRED);
    }
  }

  private void refuse(HttpServletRequest request, HttpServletResponse response, RequestTag tag,
      Outcome outcome) throws IOException, ServletException {
    try {
      answerRefusal(request, response, tag);
    } finally {
      finish(request, tag, outcome);
    }
  }

  /** Answers a refused or expired request through the rejection handler (never hangs). */
  void answerRefusal(HttpServletRequest request, HttpServletResponse response, RequestTag tag)
      throws IOException, ServletException {
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
        DEFAULT_REJECTION.reject(request, response, rejection);
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
    stoppedEngine = stopping;
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
