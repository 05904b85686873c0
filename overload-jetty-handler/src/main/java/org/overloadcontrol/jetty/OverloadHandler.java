package org.overloadcontrol.jetty;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.bandwidth.BandwidthShaper;
import org.overloadcontrol.bandwidth.GroupSnapshot;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.config.OperatorConfigFile;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.degrade.LoggingQualityListener;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.engine.Answer;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.metrics.Observability;
import org.overloadcontrol.pipeline.Exchange;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.pipeline.RequestPipeline;
import org.overloadcontrol.pipeline.Step;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.QueueListener;
import org.overloadcontrol.virtualqueue.VirtualQueueFrontEnd;

/**
 * Overload control for a Jetty 12 server without servlets: the engine the servlet filter uses,
 * as a core {@link Handler.Wrapper}. Put it in front of the handlers it protects:
 *
 * <pre>
 * server.setHandler(OverloadHandler.builder()
 *     .put("endpoints.search.target", "500ms")
 *     .put("endpoints.search.paths", "/search/*")
 *     .configFile(Path.of("etc/overload.yaml"))
 *     .handler(application)
 *     .build());
 * </pre>
 *
 * <p>Per request the handler only translates: it reads the core {@link Request} into a
 * {@link JettyRequestView}, asks the engine's {@link RequestPipeline} for the first step (the
 * request life cycle of docs/design.md: virtual queue, sessions, bandwidth shares, admission,
 * wait queues), and carries it out with Jetty's primitives ({@link ControlledRequest}). Requests
 * no {@code endpoints.<e>.paths} rule routes go to {@link #getDefaultEndpoint()}. The wrapped
 * handlers find the {@link OverloadContext} as the request attribute
 * {@link OverloadContext#ATTRIBUTE}. The outcome and response time are reported once, when
 * the wrapped handler's callback completes.
 *
 * <p>Configuration: the flat keys of the filter, from {@link #put} (or the
 * {@link OverloadHandlerBuilder}), overridden by the YAML file {@link #setConfigFile}, then by
 * the operator's file named by the system property {@value OperatorConfigFile#PROPERTY},
 * validated by {@link OverloadConfig#parse} when the handler starts; a bad key or value stops
 * the start with a message naming it. Settings are frozen once started.
 *
 * <p>Stopping answers every waiting request with 503 (the engine expires them); requests
 * already running finish normally.
 */
public class OverloadHandler extends Handler.Wrapper {

  /** The origin named in error messages for keys given in Java or Jetty XML. */
  public static final String SETTINGS_ORIGIN = "OverloadHandler settings";

  /** The endpoint of requests no path rule routes, unless configured otherwise. */
  public static final String DEFAULT_ENDPOINT = "default";

  private static final OverloadLog LOG = OverloadLog.get(OverloadHandler.class);

  private final Map<String, String> settings = new LinkedHashMap<>();
  private String configFile;
  private String baseDirectory;
  private String defaultEndpoint = DEFAULT_ENDPOINT;
  private Ticker ticker = Ticker.system();
  private Clock wallClock = Clock.systemUTC();
  private Scheduler scheduler;
  private AdmissionListener admissionListener = AdmissionListener.NONE;
  private QueueListener queueListener = new LoggingQueueListener();
  private QualityListener qualityListener = new LoggingQualityListener();

  /** What exists only while the handler runs; null when stopped. */
  private volatile OverloadRuntime running;

  /** A handler with default settings and no wrapped handler yet (for Jetty XML). */
  public OverloadHandler() {
    super();
  }

  /** A handler in front of {@code handler}. */
  public OverloadHandler(Handler handler) {
    super(handler);
  }

  /** A builder for a handler configured in Java. */
  public static OverloadHandlerBuilder builder() {
    return new OverloadHandlerBuilder();
  }

  // ---- configuration (frozen once started) ----

  /**
   * Sets one configuration key, in the filter's flat form ({@code endpoints.search.target} =
   * {@code 500ms}); the YAML file, if any, overrides it.
   */
  public void put(String key, String value) {
    checkNotStarted();
    settings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
  }

  /** The keys given with {@link #put}, in order. */
  public Map<String, String> getSettings() {
    return Map.copyOf(settings);
  }

  /** The YAML file; a relative path is resolved against {@link #setBaseDirectory}. */
  public void setConfigFile(String path) {
    checkNotStarted();
    this.configFile = path == null || path.isBlank() ? null : path.trim();
  }

  public String getConfigFile() {
    return configFile;
  }

  /** The directory a relative {@link #setConfigFile} is resolved against ({@code jetty.base}). */
  public void setBaseDirectory(String directory) {
    checkNotStarted();
    this.baseDirectory = directory == null || directory.isBlank() ? null : directory.trim();
  }

  public String getBaseDirectory() {
    return baseDirectory;
  }

  /** The endpoint of requests that no {@code endpoints.<e>.paths} rule routes. */
  public void setDefaultEndpoint(String name) {
    checkNotStarted();
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "defaultEndpoint must be a non-empty name, was '" + name + "'");
    }
    this.defaultEndpoint = name.trim();
  }

  public String getDefaultEndpoint() {
    return defaultEndpoint;
  }

  /** Time for the engine; tests pass a fake. */
  public void setTicker(Ticker ticker) {
    checkNotStarted();
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /** The wall clock {@code X-Request-Start} values are compared with. */
  public void setWallClock(Clock clock) {
    checkNotStarted();
    this.wallClock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Timers for queue deadlines and the engine's periodic task. By default the handler owns one
   * daemon timer thread, started and stopped with it; tests pass a scheduler they fire by hand.
   */
  public void setScheduler(Scheduler scheduler) {
    checkNotStarted();
    this.scheduler = scheduler;
  }

  public void setAdmissionListener(AdmissionListener listener) {
    checkNotStarted();
    this.admissionListener = Objects.requireNonNull(listener, "listener");
  }

  public void setQueueListener(QueueListener listener) {
    checkNotStarted();
    this.queueListener = Objects.requireNonNull(listener, "listener");
  }

  /** Told of every degradation period; by default one log line per change, as the filter. */
  public void setQualityListener(QualityListener listener) {
    checkNotStarted();
    this.qualityListener = Objects.requireNonNull(listener, "listener");
  }

  public QualityListener getQualityListener() {
    return qualityListener;
  }

  private void checkNotStarted() {
    if (isStarted() || isStarting()) {
      throw new IllegalStateException(
          "the settings of a started OverloadHandler cannot" + " change; stop it first");
    }
  }

  /**
   * Parses and validates the configuration as {@link #doStart} will: the keys given in Java or
   * XML, then the YAML file, then the operator's file ({@value OperatorConfigFile#PROPERTY}).
   * Every feature's section is validated too, as the filter does; the virtual queue's keys
   * (file or environment variable) are read when the handler starts.
   *
   * @throws OverloadConfigException naming the key, value and origin of the first problem
   */
  public OverloadConfig parseConfig() {
    return HandlerConfiguration.parse(
        settings, configFile, baseDirectory, defaultEndpoint, serverThreads());
  }

  /**
   * The size of the server's thread pool, the default of {@code admission.maxLimit}; 0 before
   * the handler is on a server or for a pool of unknown size.
   */
  private int serverThreads() {
    Server server = getServer();
    return server != null && server.getThreadPool() instanceof ThreadPool.SizedThreadPool pool
        ? Math.max(0, pool.getMaxThreads())
        : 0;
  }

  // ---- life cycle ----

  @Override
  protected void doStart() throws Exception {
    OverloadConfig config;
    OverloadRuntime runtime;
    try {
      config = parseConfig();
      runtime =
          OverloadRuntime.builder(config)
              .ticker(ticker)
              .wallClock(wallClock)
              .scheduler(scheduler, "overload-control-jetty")
              .admissionListener(admissionListener)
              .queueListener(queueListener)
              .qualityListener(qualityListener)
              .start();
    } catch (RuntimeException e) {
      LOG.error("{}", e.getMessage());
      throw e;
    }
    running = runtime;
    LOG.info(
        "overload-control: Jetty handler started ({} classes, {} configured endpoints,"
            + " default endpoint '{}'{})",
        config.classes().size(),
        config.endpoints().size(),
        defaultEndpoint,
        config.enabled() ? "" : ", disabled");
    super.doStart();
  }

  /**
   * Answers every waiting or delayed request with 503 (the engine expires them) before the
   * wrapped handlers stop, then stops the timer thread. Requests already running finish
   * normally and still report their outcome.
   */
  @Override
  protected void doStop() throws Exception {
    OverloadRuntime stopping = running;
    running = null;
    if (stopping != null) {
      stopping.shutdown();
    }
    try {
      super.doStop();
    } finally {
      if (stopping != null) {
        stopping.close();
      }
    }
  }

  /** The running engine, or null when stopped. */
  public OverloadEngine engine() {
    OverloadRuntime r = running;
    return r == null ? null : r.engine();
  }

  /** The running virtual queue (disabled unless configured), or null when stopped. */
  public VirtualQueueFrontEnd virtualQueue() {
    OverloadRuntime r = running;
    return r == null ? null : r.virtualQueue();
  }

  /** The running bandwidth shaper, or null when stopped or not configured. */
  public BandwidthShaper bandwidth() {
    OverloadRuntime r = running;
    return r == null ? null : r.bandwidth();
  }

  /** Bandwidth groups as measured now; empty when bandwidth shares are not configured. */
  public List<GroupSnapshot> bandwidthSnapshot() {
    BandwidthShaper b = bandwidth();
    return b == null ? List.of() : b.snapshot();
  }

  /**
   * A builder for the observability of the running handler ({@code docs/observability.md}): its
   * engine and timer thread, and its bandwidth shares and virtual queue when configured, so the
   * registry, status document and Prometheus text show all three. The caller builds, owns and
   * closes the result (before stopping the handler).
   *
   * @throws IllegalStateException when the handler is not running
   */
  public Observability.Builder observabilityBuilder() {
    OverloadRuntime r = running;
    if (r == null) {
      throw new IllegalStateException("the overload handler is not running");
    }
    return Observability.builder(r.engine())
        .scheduler(r.scheduler())
        .bandwidth(r.bandwidth())
        .virtualQueue(r.virtualQueue().queue());
  }

  // ---- requests ----

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    OverloadRuntime r = running;
    if (r == null
        || !r.config().enabled()
        || request.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      // Stopped, switched off, or already under control (a second handler in the chain).
      return super.handle(request, response, callback);
    }
    RequestPipeline pipeline = r.pipeline();
    Exchange exchange =
        pipeline.start(new JettyRequestView(request, pipeline.intake().clients()), defaultEndpoint);
    if (exchange.step().kind() == Step.Kind.PASS) {
      // A health, readiness or metrics probe: never a permit, a wait or a refusal.
      return super.handle(request, response, callback);
    }
    request.setAttribute(OverloadContext.ATTRIBUTE, exchange.tag());
    return new ControlledRequest(this, exchange, request, response, callback)
        .first(exchange.step());
  }

  /** Calls the wrapped handler; false when there is none or it did not take the request. */
  boolean handleNext(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, response, callback);
  }

  /**
   * Answers a refused or expired request: by default 503 with {@code Retry-After},
   * {@code Cache-Control: no-store} and the engine's {@link Answer} (an HTML page for
   * browsers, {@code application/problem+json} for the rest), the same bytes the servlet
   * filter sends. Override to answer differently (redirect, a cheaper page); the override must
   * complete {@code callback}. If it throws before the response is committed, the default
   * answer is sent, so a client never waits on a refused request.
   *
   * @param tag the request's tag: {@link RequestTag#reason()} says why,
   *     {@link RequestTag#retryAfterNanos()} when to come back
   */
  protected void reject(Request request, Response response, Callback callback, RequestTag tag) {
    JettyAnswers.refusal(request, response, callback, tag);
  }

  void answerRefusal(Request request, Response response, Callback callback, RequestTag tag) {
    try {
      reject(request, response, callback, tag);
    } catch (RuntimeException | Error e) {
      LOG.warn(
          "overload-control: {}.reject failed; sending the default 503", getClass().getName(), e);
      if (response.isCommitted()) {
        callback.failed(e);
      } else {
        JettyAnswers.refusal(request, response, callback, tag);
      }
    }
  }

  @Override
  public String toString() {
    return String.format(
        "%s@%x{%s,defaultEndpoint=%s}",
        getClass().getSimpleName(), hashCode(), getState(), defaultEndpoint);
  }
}
