package org.overloadcontrol.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
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
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.classify.ArrivalTime;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.ConfigSource;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.config.YamlConfigLoader;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.Outcome;
import org.overloadcontrol.engine.RequestIntake;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.engine.ExecutorScheduler;
import org.overloadcontrol.engine.Ticker;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.ProcessCpuUtilisation;
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

  private final Ticker ticker;
  private final AdmissionListener listener;
  private volatile OverloadEngine engine;
  private OverloadConfig config;
  private RejectionHandler rejectionHandler;
  private ArrivalTime arrivalTime;
  private RequestIntake intake;
  private ClientAddressResolver clients;
  private Map<String, String> endpointByServlet = Map.of();
  private ServletContext servletContext;
  private ExecutorScheduler scheduler;

  /** The constructor the container uses: system ticker, no listener. */
  public OverloadFilter() {
    this(Ticker.system(), AdmissionListener.NONE);
  }

  /** For tests and embedding: a given ticker and controller listener. */
  public OverloadFilter(Ticker ticker, AdmissionListener listener) {
    this.ticker = ticker;
    this.listener = listener;
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    servletContext = filterConfig.getServletContext();
    try {
      ServletAnnotations.Result annotations = ServletAnnotations.scan(servletContext);
      Map<String, String> params = new LinkedHashMap<>();
      for (String name : Collections.list(filterConfig.getInitParameterNames())) {
        params.put(name, filterConfig.getInitParameter(name));
      }
      List<ConfigSource> layers = new ArrayList<>();
      layers.add(annotations.layer());
      ConfigSource initParams = ConfigSource.of("web.xml init-param of filter '"
          + filterConfig.getFilterName() + "'", params);
      layers.add(initParams);
      ConfigSource yaml = loadYaml(params.get("configFile"));
      if (yaml != null) {
        layers.add(yaml);
      }
      annotations.requireResolved(key -> initParams.values().containsKey(key)
          || (yaml != null && yaml.values().containsKey(key)));
      config = OverloadConfig.parse(layers);
      endpointByServlet = annotations.endpointByServlet();
      rejectionHandler = rejectionHandler(config);
    } catch (OverloadConfigException e) {
      LOG.error("{}", e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    clients = new ClientAddressResolver(config.trustedProxies());
    arrivalTime = new ArrivalTime(ticker, Clock.systemUTC(), config.requestStartMaxAgeNanos());
    scheduler = new ExecutorScheduler("overload-control-" + filterConfig.getFilterName());
    try {
      engine = OverloadEngine.builder(config).ticker(ticker).admissionListener(listener)
          .scheduler(scheduler).cpuUtilisation(new ProcessCpuUtilisation())
          .queueListener(new LoggingQueueListener()).build();
    } catch (OverloadConfigException e) {
      scheduler.close();
      LOG.error("{}", e.getMessage());
      throw new ServletException(e.getMessage(), e);
    }
    intake = new RequestIntake(engine, clients, arrivalTime);
    servletContext.setAttribute(ENGINE_ATTRIBUTE, engine);
    LOG.info("overload-control: filter '{}' started ({} classes, {} configured endpoints{})",
        filterConfig.getFilterName(), config.classes().size(), config.endpoints().size(),
        config.enabled() ? "" : ", disabled");
  }

  private ConfigSource loadYaml(String configured) throws ServletException {
    String path = configured == null || configured.isBlank() ? DEFAULT_CONFIG_FILE
        : configured.trim();
    try {
      InputStream in = path.startsWith("/") ? servletContext.getResourceAsStream(path) : null;
      String name = path;
      if (in == null && configured != null) {
        File file = new File(path);
        if (!file.isFile()) {
          throw OverloadConfigException.of("configFile", configured,
              "web.xml init-param", "no such file in the web application or on disk");
        }
        in = new FileInputStream(file);
        name = file.getPath();
      }
      if (in == null) {
        return null;
      }
      try (InputStream stream = in) {
        return YamlConfigLoader.load(stream, name);
      }
    } catch (IOException e) {
      throw new ServletException("overload-control: cannot read " + path + ": " + e, e);
    }
  }

  private RejectionHandler rejectionHandler(OverloadConfig config) {
    Object supplied = servletContext.getAttribute(RejectionHandler.ATTRIBUTE);
    if (supplied instanceof RejectionHandler handler) {
      return handler;
    }
    String className = config.rejectionHandler();
    if (className == null || className.isBlank()) {
      return DEFAULT_REJECTION;
    }
    try {
      Class<?> type = Class.forName(className.trim(), true, servletContext.getClassLoader());
      if (!RejectionHandler.class.isAssignableFrom(type)) {
        throw OverloadConfigException.of("rejectionHandler", className, null,
            "the class does not implement " + RejectionHandler.class.getName());
      }
      return (RejectionHandler) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw OverloadConfigException.of("rejectionHandler", className, null,
          "cannot create it (a public class with a public no-argument constructor): " + e);
    }
  }

  /** The running engine, or null before {@link #init}. */
  public OverloadEngine engine() {
    return engine;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    OverloadEngine engine = this.engine;
    if (engine == null || !config.enabled()
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    if (req.getDispatcherType() != DispatcherType.REQUEST
        || req.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      passThrough(request, response, chain);
      return;
    }
    RequestTag tag = intake.tag(endpointOf(request), request.getRemoteAddr(),
        new ServletRequestAttributes(request, clients));
    switch (engine.arrive(tag)) {
      case ADMIT -> run(engine, request, response, chain, tag);
      case WAIT -> waitForPermit(engine, request, response, chain, tag);
      case REJECT -> refuse(engine, request, response, tag, Outcome.REJECTED);
    }
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
      Object lifecycle = request.getAttribute(QueuedRequest.ATTRIBUTE);
      if (lifecycle instanceof QueuedRequest q) {
        q.markFailed();
      }
      throw e;
    }
  }

  /** Runs the application for an admitted request and reports its completion. */
  private static void run(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, FilterChain chain, RequestTag tag)
      throws IOException, ServletException {
    request.setAttribute(OverloadContext.ATTRIBUTE, tag);
    Outcome outcome = Outcome.FAILED;
    try {
      chain.doFilter(request, response);
      outcome = Outcome.COMPLETED;
      if (request.isAsyncStarted()) {
        // The response is not done: its time and outcome are reported when it completes.
        request.getAsyncContext().addListener(new CompletionListener(engine, tag));
        outcome = null;
      }
    } finally {
      if (outcome != null) {
        engine.complete(tag, outcome, -1L);
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
      AsyncContext async = request.startAsync();
      // The filter's own timer expires the request at its deadline; the container's timeout is
      // only a safety net, set later so that it never races the timer in normal operation.
      async.setTimeout(TimeUnit.NANOSECONDS.toMillis(
          engine.queueSettings().longestMaxWaitNanos()) + ASYNC_TIMEOUT_MARGIN_MILLIS);
      QueuedRequest queued = new QueuedRequest(engine, tag, async, this::answerRefusal);
      request.setAttribute(QueuedRequest.ATTRIBUTE, queued);
      async.addListener(queued);
      if (!engine.enqueue(tag, queued)) {
        queued.refuseNow();
      }
      return;
    }
    if (engine.queueSettings().nonAsync() == QueueSettings.NonAsync.REJECT) {
      engine.refuse(tag, "no-async");
      refuse(engine, request, response, tag, Outcome.REJECTED);
      return;
    }
    BlockingWait wait = new BlockingWait();
    if (!engine.enqueue(tag, wait)) {
      refuse(engine, request, response, tag, Outcome.REJECTED);
      return;
    }
    if (wait.await(engine, tag)) {
      run(engine, request, response, chain, tag);
    } else {
      refuse(engine, request, response, tag, Outcome.EXPIRED);
    }
  }

  private void refuse(OverloadEngine engine, HttpServletRequest request,
      HttpServletResponse response, RequestTag tag, Outcome outcome)
      throws IOException, ServletException {
    try {
      answerRefusal(request, response, tag);
    } finally {
      engine.complete(tag, outcome, 0L);
    }
  }

  private String endpointOf(HttpServletRequest request) {
    HttpServletMapping mapping = request.getHttpServletMapping();
    String servlet = mapping == null ? null : mapping.getServletName();
    if (servlet == null || servlet.isEmpty()) {
      return "unmapped";
    }
    String named = endpointByServlet.get(servlet);
    return named == null ? servlet : named;
  }

  /** Answers a refused or expired request through the rejection handler (never hangs). */
  void answerRefusal(HttpServletRequest request, HttpServletResponse response, RequestTag tag)
      throws IOException, ServletException {
    String reason = tag.reason() == null ? Rejection.ADMISSION_RATE : tag.reason();
    Rejection rejection = new Rejection(tag.endpoint(), tag.requestClass(), reason,
        Duration.ofNanos(tag.retryAfterNanos()));
    try {
      rejectionHandler.reject(request, response, rejection);
    } catch (IOException | ServletException | RuntimeException e) {
      LOG.warn("overload-control: rejection handler {} failed; sending the default 503",
          rejectionHandler.getClass().getName(), e);
      if (!response.isCommitted()) {
        // A handler that failed must not leave the client without an answer.
        DEFAULT_REJECTION.reject(request, response, rejection);
      }
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
    if (stopping != null) {
      stopping.shutdown();
      if (servletContext != null && servletContext.getAttribute(ENGINE_ATTRIBUTE) == stopping) {
        servletContext.removeAttribute(ENGINE_ATTRIBUTE);
      }
    }
    if (scheduler != null) {
      scheduler.close();
    }
  }

  /** Reports an asynchronous request's outcome when its response completes. */
  private static final class CompletionListener implements AsyncListener {
    private final OverloadEngine engine;
    private final RequestTag tag;
    private volatile boolean failed;

    CompletionListener(OverloadEngine engine, RequestTag tag) {
      this.engine = engine;
      this.tag = tag;
    }

    @Override
    public void onComplete(AsyncEvent event) {
      engine.complete(tag, failed ? Outcome.FAILED : Outcome.COMPLETED, -1L);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      failed = true;
    }

    @Override
    public void onError(AsyncEvent event) {
      failed = true;
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }
  }
}
