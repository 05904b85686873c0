package org.overloadcontrol.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Map.Entry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.FormFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.bandwidth.BandwidthShaper;
import org.overloadcontrol.bandwidth.GroupSnapshot;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.config.AdmissionSettings;
import org.overloadcontrol.config.ConfigSource;
import org.overloadcontrol.config.OperatorConfigFile;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.config.YamlConfigLoader;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.base.Outcome;
import org.overloadcontrol.engine.RefusalBody;
import org.overloadcontrol.engine.RequestIntake;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.engine.RequestTag;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.metrics.Observability;
import org.overloadcontrol.pipeline.OverloadRuntime;
import org.overloadcontrol.pipeline.Settings;
import org.overloadcontrol.degrade.LoggingQualityListener;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.QueueListener;
import org.overloadcontrol.virtualqueue.QueueVerdict;
import org.overloadcontrol.virtualqueue.QueueVisit;
import org.overloadcontrol.virtualqueue.TokenCookie;
import org.overloadcontrol.virtualqueue.VirtualQueueFrontEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Per request (docs/design.md, request life cycle): tag it (arrival on the engine's ticker, or a
 * trusted proxy's {@code X-Request-Start}); route it to its endpoint (the first
 * {@code endpoints.<e>.paths} rule that matches, else {@link #getDefaultEndpoint()}) and class
 * (class rules on path, method, header, cookie or client address); on paths the virtual queue
 * protects ({@code virtualQueue.*}, WebQ), let it pass or answer a known wait with a signed
 * token ({@code REDIRECTED}) or a refusal; for client groups with bandwidth shares
 * ({@code bandwidth.*}, Li &amp; Jamin), refuse a group over its share (429) or without one
 * (403), or hold the request on a timer for its delay, holding no thread; then ask the endpoint's
 * response-time controller to admit it (Welsh &amp; Culler 2003, §3.2–3.3); with wait queues
 * configured ({@code queue.*}), run it when an execution permit is free or hold it in its
 * class's LIFO-Pri queue (Singhmar et al. 2004) until one is, holding no thread; refuse with
 * 503 + {@code Retry-After} (HTML or {@code application/problem+json}) otherwise. The wrapped
 * handlers find the {@link OverloadContext} as the request attribute
 * {@link OverloadContext#ATTRIBUTE}. The outcome and response time are reported once, when
 * the wrapped handler's callback completes.
 *
 * <p>Configuration: the flat keys of the filter, from {@link #put} (or the {@link Builder}),
 * overridden by the YAML file {@link #setConfigFile}, then by the operator's file named by the
 * system property {@value OperatorConfigFile#PROPERTY}, validated by
 * {@link OverloadConfig#parse} when the handler starts; a bad key or value stops the start
 * with a message naming it. Settings are frozen once started.
 *
 * <p>Stopping answers every waiting request with 503 (the engine expires them); requests
 * already running finish normally.
 */
public class OverloadHandler extends Handler.Wrapper {

  /** The origin named in error messages for keys given in Java or Jetty XML. */
  public static final String SETTINGS_ORIGIN = "OverloadHandler settings";
  /** The endpoint of requests no path rule routes, unless configured otherwise. */
  public static final String DEFAULT_ENDPOINT = "default";

  private static final Logger LOG = LoggerFactory.getLogger(OverloadHandler.class);

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
  private volatile Running running;

  /** What exists only while the handler runs. */
  private record Running(OverloadRuntime runtime, RequestIntake intake) {
    OverloadConfig config() {
      return runtime.config();
    }

    OverloadEngine engine() {
      return runtime.engine();
    }

    Scheduler timers() {
      return runtime.scheduler();
    }

    VirtualQueueFrontEnd virtualQueue() {
      return runtime.virtualQueue();
    }

    BandwidthShaper bandwidth() {
      return runtime.bandwidth();
    }
  }

  /** A handler with default settings and no wrapped handler yet (for Jetty XML). */
  public OverloadHandler() {
    super();
  }

  /** A handler in front of {@code handler}. */
  public OverloadHandler(Handler handler) {
    super(handler);
  }

  /** A builder for a handler configured in Java. */
  public static Builder builder() {
    return new Builder();
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
      throw new IllegalArgumentException("defaultEndpoint must be a non-empty name, was '"
          + name + "'");
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
      throw new IllegalStateException("the settings of a started OverloadHandler cannot"
          + " change; stop it first");
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
    List<ConfigSource> layers = new ArrayList<>();
    layers.add(ConfigSource.of(SETTINGS_ORIGIN, settings));
    String file = configFile != null ? configFile : settings.get("configFile");
    if (file != null && !file.isBlank()) {
      layers.add(loadYaml(file.trim()));
    }
    ConfigSource operator = OperatorConfigFile.fromSystemProperty();
    if (operator != null) {
      layers.add(operator);
    }
    ConfigSource threads = serverThreads(layers);
    if (threads != null) {
      layers.add(0, threads);
    }
    OverloadConfig config = OverloadConfig.parse(layers);
    String rejection = config.rejectionHandler();
    if (rejection != null && !rejection.isBlank()) {
      throw OverloadConfigException.of("rejectionHandler", rejection, null, "names a servlet"
          + " RejectionHandler, which cannot answer Jetty core requests; to answer refusals"
          + " yourself, subclass OverloadHandler and override reject(...)");
    }
    // Without servlets, requests reach the default endpoint or one a paths rule names.
    Settings.of(config).requireKnownEndpoints(layers, List.of(defaultEndpoint));
    return config;
  }

  /**
   * The server's thread pool as the lowest layer, {@code admission.maxLimit}; null before the
   * handler is on a server or for a pool of unknown size.
   */
  private ConfigSource serverThreads(List<ConfigSource> layers) {
    Server server = getServer();
    if (server == null
        || !(server.getThreadPool() instanceof ThreadPool.SizedThreadPool pool)
        || pool.getMaxThreads() <= 0) {
      return null;
    }
    return AdmissionSettings.containerThreads("the server's thread pool", pool.getMaxThreads(),
        layers);
  }

  private ConfigSource loadYaml(String file) {
    Path path = Path.of(file);
    if (!path.isAbsolute() && baseDirectory != null) {
      path = Path.of(baseDirectory).resolve(path);
    }
    if (!Files.isRegularFile(path)) {
      throw OverloadConfigException.of("configFile", file, SETTINGS_ORIGIN,
          "no such file (" + path.toAbsolutePath() + ")");
    }
    try (InputStream in = Files.newInputStream(path)) {
      return YamlConfigLoader.load(in, path.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("overload-control: cannot read " + path + ": " + e, e);
    }
  }

  // ---- life cycle ----

  @Override
  protected void doStart() throws Exception {
    OverloadConfig config;
    try {
      config = parseConfig();
    } catch (OverloadConfigException e) {
      LOG.error("{}", e.getMessage());
      throw e;
    }
    OverloadRuntime runtime;
    try {
      runtime = OverloadRuntime.builder(config).ticker(ticker).wallClock(wallClock)
          .scheduler(scheduler, "overload-control-jetty").admissionListener(admissionListener)
          .queueListener(queueListener).qualityListener(qualityListener).start();
    } catch (RuntimeException e) {
      LOG.error("{}", e.getMessage());
      throw e;
    }
    running = new Running(runtime, RequestIntake.of(runtime.engine(), wallClock));
    LOG.info("overload-control: Jetty handler started ({} classes, {} configured endpoints,"
        + " default endpoint '{}'{})", config.classes().size(), config.endpoints().size(),
        defaultEndpoint, config.enabled() ? "" : ", disabled");
    super.doStart();
  }

  /**
   * Answers every waiting or delayed request with 503 (the engine expires them) before the
   * wrapped handlers stop, then stops the timer thread. Requests already running finish normally and
   * still report their outcome.
   */
  @Override
  protected void doStop() throws Exception {
    Running stopping = running;
    running = null;
    if (stopping != null) {
      stopping.runtime().shutdown();
    }
    try {
      super.doStop();
    } finally {
      if (stopping != null) {
        stopping.runtime().close();
      }
    }
  }

  /** The running engine, or null when stopped. */
  public OverloadEngine engine() {
    Running r = running;
    return r == null ? null : r.engine();
  }

  /** The running virtual queue (disabled unless configured), or null when stopped. */
  public VirtualQueueFrontEnd virtualQueue() {
    Running r = running;
    return r == null ? null : r.virtualQueue();
  }

  /** The running bandwidth shaper, or null when stopped or not configured. */
  public BandwidthShaper bandwidth() {
    Running r = running;
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
    Running r = running;
    if (r == null) {
      throw new IllegalStateException("the overload handler is not running");
    }
    return Observability.builder(r.engine()).scheduler(r.timers()).bandwidth(r.bandwidth())
        .virtualQueue(r.virtualQueue().queue());
  }

  // ---- requests ----

  @Override
  public boolean handle(Request request, Response response, Callback callback)
      throws Exception {
    Running r = running;
    if (r == null || !r.config().enabled()
        || request.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      // Stopped, switched off, or already under control (a second handler in the chain).
      return super.handle(request, response, callback);
    }
    OverloadEngine engine = r.engine();
    if (engine.bypasses(Request.getPathInContext(request))) {
      // A health, readiness or metrics probe: never a permit, a wait or a refusal.
      return super.handle(request, response, callback);
    }
    JettyRequestAttributes attributes =
        new JettyRequestAttributes(request, r.intake().clients());
    RequestTag tag = r.intake().tag(defaultEndpoint,
        r.intake().clients().trustsAnyProxy() ? attributes.peerAddress() : null, attributes);
    request.setAttribute(OverloadContext.ATTRIBUTE, tag);
    ControlledRequest controlled = new ControlledRequest(this, engine, r.virtualQueue(), tag,
        request, response, callback);
    String path = attributes.path();
    // 1. The virtual queue: a known wait instead of an error (WebQ).
    if (r.virtualQueue().protects(path) && !passVirtualQueue(r.virtualQueue(), attributes,
        controlled, response, callback)) {
      return true;
    }
    // Sessions (Cherkasova & Phaal): a new session's first request is the one refused.
    if (engine.sessions() != null && JettySessions.refused(engine, request, response,
        attributes, tag, controlled.passedOnToken())) {
      controlled.refuse(Outcome.REJECTED);
      return true;
    }
    // 2. Bandwidth shares (Li & Jamin): refuse, or delay on a timer, a group over its share.
    if (r.bandwidth() != null && r.bandwidth().shapes(path)) {
      ShapingDecision shaping = r.bandwidth().decide(attributes,
          BandwidthShaper.declaredSize(request.getAttribute(BandwidthShaper.SIZE_ATTRIBUTE)));
      switch (shaping.kind()) {
        case REFUSE -> {
          controlled.refuseShare(shaping);
          return true;
        }
        case DELAY -> {
          controlled.shaped(shaping.ticket());
          controlled.delay(r.runtime(), shaping);
          return true;
        }
        default -> controlled.shaped(shaping.ticket());
      }
    }
    // 3. Admission, and a permit or a place in the wait queues.
    return controlled.admit();
  }

  /**
   * Asks the virtual queue; returns true when the request goes on, else answers it (a waiting
   * page, JSON with a token, or a refusal). A browser's url-encoded form POST told to wait is
   * read with Jetty's {@link FormFields} (at most {@code repostMaxBytes}, without blocking) so
   * that the waiting page can re-post it.
   */
  private static boolean passVirtualQueue(VirtualQueueFrontEnd queue,
      JettyRequestAttributes attributes, ControlledRequest controlled, Response response,
      Callback callback) {
    Request request = controlled.request();
    QueueVisit visit = new QueueVisit(attributes.clientAddress(), attributes.path(),
        request.getHttpURI().getPath(), request.getHttpURI().getQuery(), request.getMethod(),
        request.getHeaders().get(HttpHeader.ACCEPT),
        request.getHeaders().get(HttpHeader.CONTENT_TYPE), request.getLength(),
        attributes.cookie(TokenCookie.NAME), request.isSecure());
    QueueVerdict verdict = queue.visit(visit);
    if (verdict instanceof QueueVerdict.Pass pass) {
      if (pass.clearCookie() != null) {
        Response.addCookie(response, JettyAnswers.cookie(pass.clearCookie()));
      }
      controlled.passedQueue(pass.type(), pass.byToken());
      return true;
    }
    QueueVerdict.Stop stop = (QueueVerdict.Stop) verdict;
    if (!queue.keepsForm(visit, stop)) {
      controlled.answerQueue(queue.answer(visit, stop, null));
      return false;
    }
    FormFields.from(request, FormFields.MAX_FIELDS_DEFAULT, queue.repostMaxBytes())
        .whenComplete((fields, failure) -> controlled.answerQueue(
            queue.answer(visit, stop, failure == null ? entries(fields) : null)));
    return false;
  }

  /** Jetty's form fields in order, one entry per value. */
  private static List<Entry<String, String>> entries(Fields fields) {
    List<Entry<String, String>> list = new ArrayList<>();
    for (Fields.Field field : fields) {
      for (String value : field.getValues()) {
        list.add(Map.entry(field.getName(), value));
      }
    }
    return list;
  }

  /** Calls the wrapped handler; false when there is none or it did not take the request. */
  boolean handleNext(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, response, callback);
  }

  /**
   * Answers a refused or expired request: by default 503 with {@code Retry-After},
   * {@code Cache-Control: no-store} and the engine's {@link RefusalBody} (an HTML page for
   * browsers, {@code application/problem+json} for the rest), the same bytes the servlet
   * filter sends. Override to answer differently (redirect, a cheaper page); the override must
   * complete {@code callback}. If it throws before the response is committed, the default
   * answer is sent, so a client never waits on a refused request.
   *
   * @param tag the request's tag: {@link RequestTag#reason()} says why,
   *     {@link RequestTag#retryAfterNanos()} when to come back
   */
  protected void reject(Request request, Response response, Callback callback, RequestTag tag) {
    writeRefusal(request, response, callback, tag);
  }

  void answerRefusal(Request request, Response response, Callback callback, RequestTag tag) {
    try {
      reject(request, response, callback, tag);
    } catch (RuntimeException | Error e) {
      LOG.warn("overload-control: {}.reject failed; sending the default 503",
          getClass().getName(), e);
      if (response.isCommitted()) {
        callback.failed(e);
      } else {
        writeRefusal(request, response, callback, tag);
      }
    }
  }

  private static void writeRefusal(Request request, Response response, Callback callback,
      RequestTag tag) {
    JettyAnswers.write(response, RefusalBody.of(tag, request.getHeaders().get(HttpHeader.ACCEPT),
        request.getHttpURI().getPath()), callback);
  }

  @Override
  public String toString() {
    return String.format("%s@%x{%s,defaultEndpoint=%s}", getClass().getSimpleName(),
        hashCode(), getState(), defaultEndpoint);
  }

  /**
   * Builds an {@link OverloadHandler} in Java. Typed methods produce the same flat keys as
   * {@link #put}, so anything the YAML file can say, the builder can say; {@link #build}
   * validates the whole configuration at once and throws naming the first bad key.
   */
  public static final class Builder {
    private final Map<String, String> settings = new LinkedHashMap<>();
    private String configFile;
    private String baseDirectory;
    private String defaultEndpoint = DEFAULT_ENDPOINT;
    private Ticker ticker;
    private Clock wallClock;
    private Scheduler scheduler;
    private AdmissionListener admissionListener;
    private QueueListener queueListener;
    private Handler handler;

    private Builder() {}

    /** One flat key, e.g. {@code put("endpoints.search.target", "500ms")}. */
    public Builder put(String key, String value) {
      settings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Every entry of {@code keys}, as by {@link #put}. */
    public Builder putAll(Map<String, String> keys) {
      keys.forEach(this::put);
      return this;
    }

    /** {@code endpoints.<endpoint>.target}: the p90 response-time target of an endpoint. */
    public Builder target(String endpoint, Duration p90Target) {
      return put("endpoints." + endpoint + ".target", p90Target.toString());
    }

    /** {@code endpoints.<endpoint>.paths}: path patterns routed to an endpoint. */
    public Builder paths(String endpoint, String... patterns) {
      return put("endpoints." + endpoint + ".paths", String.join(",", patterns));
    }

    /** {@code classes.<name>.rank/kind/utility}: defines a request class. */
    public Builder requestClass(String name, int rank, RequestKind kind, double utility) {
      put("classes." + name + ".rank", Integer.toString(rank));
      put("classes." + name + ".kind", kind.name().toLowerCase(Locale.ROOT));
      return put("classes." + name + ".utility", Double.toString(utility));
    }

    /**
     * {@code classes.<name>.match.<condition>}: a classification rule; condition is
     * {@code path}, {@code method}, {@code header}, {@code cookie} or {@code client}.
     */
    public Builder match(String className, String condition, String value) {
      return put("classes." + className + ".match." + condition, value);
    }

    /** {@code queue.permits}: requests executing at once; more wait in the LIFO-Pri queues. */
    public Builder permits(int permits) {
      return put("queue.permits", Integer.toString(permits));
    }

    /** {@code trustedProxies}: proxies whose forwarded headers are believed. */
    public Builder trustedProxies(String... addressesOrCidrs) {
      return put("trustedProxies", String.join(",", addressesOrCidrs));
    }

    /** The YAML file, whose keys override those given here. */
    public Builder configFile(Path file) {
      this.configFile = file.toString();
      return this;
    }

    /** The directory a relative config file is resolved against. */
    public Builder baseDirectory(Path directory) {
      this.baseDirectory = directory.toString();
      return this;
    }

    /** The endpoint of requests that no path rule routes (default {@code "default"}). */
    public Builder defaultEndpoint(String name) {
      this.defaultEndpoint = name;
      return this;
    }

    public Builder ticker(Ticker value) {
      this.ticker = value;
      return this;
    }

    public Builder wallClock(Clock value) {
      this.wallClock = value;
      return this;
    }

    public Builder scheduler(Scheduler value) {
      this.scheduler = value;
      return this;
    }

    public Builder admissionListener(AdmissionListener value) {
      this.admissionListener = value;
      return this;
    }

    public Builder queueListener(QueueListener value) {
      this.queueListener = value;
      return this;
    }

    /** The handler to protect. */
    public Builder handler(Handler value) {
      this.handler = value;
      return this;
    }

    /**
     * The handler, its configuration validated.
     *
     * @throws OverloadConfigException naming the first bad key, its value and origin
     */
    public OverloadHandler build() {
      OverloadHandler h = new OverloadHandler();
      settings.forEach(h::put);
      h.setConfigFile(configFile);
      h.setBaseDirectory(baseDirectory);
      h.setDefaultEndpoint(defaultEndpoint);
      if (ticker != null) {
        h.setTicker(ticker);
      }
      if (wallClock != null) {
        h.setWallClock(wallClock);
      }
      h.setScheduler(scheduler);
      if (admissionListener != null) {
        h.setAdmissionListener(admissionListener);
      }
      if (queueListener != null) {
        h.setQueueListener(queueListener);
      }
      h.parseConfig();
      if (handler != null) {
        h.setHandler(handler);
      }
      return h;
    }
  }
}
