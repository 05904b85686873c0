package org.overloadcontrol.jetty;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.OverloadContext;
import org.overloadcontrol.Rejection;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.pipeline.ConfigFileWatch;
import org.overloadcontrol.internal.pipeline.Exchange;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.RequestPipeline;
import org.overloadcontrol.internal.pipeline.Settings;
import org.overloadcontrol.internal.pipeline.Step;
import org.overloadcontrol.queue.QueueListener;

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
 * the operator's file named by the system property {@value OperatorConfigFile#PROPERTY}, every
 * feature's section validated as the filter does when the handler starts; a bad key or value
 * stops the start with a message naming it. The setters are frozen once started; the
 * configuration is not: {@link #reload()} reads the files again, {@link #reload(Map)} takes new
 * keys in place of those given in Java, and a change to a YAML file on disk is reloaded by
 * itself within 2 s (docs/guide/reload.md). Stopping answers every waiting request with 503;
 * requests already running finish normally. In a graceful stop (the server's stop timeout, with
 * a {@code GracefulHandler}) this happens when the stop begins ({@link #shutdown}), not after
 * the wait for the requests in progress, so that no waiting request is run while the server
 * stops.
 */
public class OverloadHandler extends Handler.Wrapper implements Graceful {

  /** The origin named in error messages for keys given in Java or Jetty XML. */
  public static final String SETTINGS_ORIGIN = "OverloadHandler settings";

  /** The endpoint of requests no path rule routes, unless configured otherwise. */
  public static final String DEFAULT_ENDPOINT = "default";

  /** What the setters below write; read once, when the handler starts. */
  private final HandlerSettings settings;

  /** What exists only while the handler runs; null when stopped. */
  private volatile OverloadRuntime running;

  /** Whether a graceful stop has begun since the start. */
  private volatile boolean shutdown;

  /** The keys a {@link #reload(Map)} put in place of those given in Java; null when none did. */
  private volatile Map<String, String> reloadedKeys;

  /** Watches the YAML files while the handler runs; null when there is none or it is stopped. */
  private volatile ConfigFileWatch watch;

  /** Told after each applied reload (the status handler renews its observability). */
  private final List<Runnable> reloadListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** One reload at a time. */
  private final java.util.concurrent.locks.ReentrantLock reloading =
      new java.util.concurrent.locks.ReentrantLock();

  /** A handler with default settings and no wrapped handler yet (for Jetty XML). */
  public OverloadHandler() {
    this.settings = new HandlerSettings(this::isFrozen);
  }

  /** A handler in front of {@code handler}. */
  public OverloadHandler(Handler handler) {
    super(handler);
    this.settings = new HandlerSettings(this::isFrozen);
  }

  /** The handler {@link OverloadHandlerBuilder#build} makes, with the settings it collected. */
  OverloadHandler(HandlerSettings settings) {
    this.settings = settings.copy(this::isFrozen);
  }

  /** Settings are frozen while the handler starts or runs. */
  private boolean isFrozen() {
    return isStarted() || isStarting();
  }

  /** A builder for a handler configured in Java. */
  public static OverloadHandlerBuilder builder() {
    return new OverloadHandlerBuilder();
  }

  /**
   * Sets one configuration key, in the filter's flat form ({@code endpoints.search.target} =
   * {@code 500ms}); the YAML file, if any, overrides it.
   */
  public void put(String key, String value) {
    settings.put(key, value);
  }

  /** The keys given with {@link #put}. */
  public Map<String, String> getSettings() {
    return settings.keys();
  }

  /** The YAML file; a relative path is resolved against {@link #setBaseDirectory}. */
  public void setConfigFile(String path) {
    settings.configFile(path);
  }

  public String getConfigFile() {
    return settings.configFile();
  }

  /** The directory a relative {@link #setConfigFile} is resolved against ({@code jetty.base}). */
  public void setBaseDirectory(String directory) {
    settings.baseDirectory(directory);
  }

  public String getBaseDirectory() {
    return settings.baseDirectory();
  }

  /** The endpoint of requests that no {@code endpoints.<e>.paths} rule routes. */
  public void setDefaultEndpoint(String name) {
    settings.defaultEndpoint(name);
  }

  public String getDefaultEndpoint() {
    return settings.defaultEndpoint();
  }

  /** Time for the engine; tests pass a fake. */
  public void setTicker(Ticker ticker) {
    settings.ticker(ticker);
  }

  /** The wall clock {@code X-Request-Start} values are compared with. */
  public void setWallClock(Clock clock) {
    settings.wallClock(clock);
  }

  /**
   * Timers for queue deadlines and the engine's periodic task. By default the handler owns one
   * daemon timer thread, started and stopped with it; tests pass a scheduler they fire by hand.
   */
  public void setScheduler(Scheduler scheduler) {
    settings.scheduler(scheduler);
  }

  public void setAdmissionListener(AdmissionListener listener) {
    settings.admissionListener(listener);
  }

  public void setQueueListener(QueueListener listener) {
    settings.queueListener(listener);
  }

  /** Told of every degradation period; by default one log line per change, as the filter. */
  public void setQualityListener(QualityListener listener) {
    settings.qualityListener(listener);
  }

  public QualityListener getQualityListener() {
    return settings.qualityListener();
  }

  /**
   * Parses and validates the configuration, in the layers the class comment lists, as the start
   * will; the virtual queue's keys (file or environment variable) are read at the start only.
   *
   * @throws OverloadConfigException naming the key, value and origin of the first problem
   */
  public void checkConfig() {
    parseSettings();
  }

  /** The configuration {@link #checkConfig} validates, for the builder and the tests. */
  Settings parseSettings() {
    return settings.parse(getServer());
  }

  @Override
  protected void doStart() throws Exception {
    shutdown = false;
    reloadedKeys = null;
    OverloadRuntime r = settings.start(getServer());
    running = r;
    watch = ConfigFileWatch.start(settings.files(settings.keys()), r.scheduler(), this::reload);
    super.doStart();
  }

  /**
   * Reads the configuration again, every layer as at start, and puts it in force between
   * requests when it is valid as a whole; otherwise the running one stays in force and the
   * result says why, with the message of a start (docs/guide/reload.md).
   *
   * @throws IllegalStateException when the handler is not running
   */
  public ReloadResult reload() {
    Map<String, String> keys = reloadedKeys;
    return reload(keys == null ? settings.keys() : keys);
  }

  /**
   * As {@link #reload()}, with {@code keys} in place of the keys given in Java or XML (the YAML
   * file and the operator's file still override them); kept for later reloads when applied.
   *
   * @throws IllegalStateException when the handler is not running
   */
  public ReloadResult reload(Map<String, String> keys) {
    Map<String, String> copy = Map.copyOf(keys);
    reloading.lock();
    try {
      OverloadRuntime r = running;
      if (r == null) {
        throw new IllegalStateException("the overload handler is not running");
      }
      long before = r.configVersion();
      ReloadResult result = r.reload(() -> settings.parse(getServer(), copy));
      if (result.applied()) {
        reloadedKeys = copy;
        watchFilesOf(copy, r);
      }
      if (result.applied() && result.version() != before) {
        for (Runnable listener : reloadListeners) {
          listener.run();
        }
      }
      return result;
    } finally {
      reloading.unlock();
    }
  }

  /**
   * Keys that name another configuration file move the watch to it: the file read is the file
   * watched. Called under the reload's lock, so that a stop, which takes it too, closes the
   * watch this leaves.
   */
  private void watchFilesOf(Map<String, String> keys, OverloadRuntime r) {
    List<java.nio.file.Path> files = settings.files(keys);
    ConfigFileWatch w = watch;
    if (w == null ? files.isEmpty() : w.files().equals(files)) {
      return;
    }
    if (w != null) {
      w.close();
    }
    watch = ConfigFileWatch.start(files, r.scheduler(), this::reload);
  }

  /** The configuration version in force (1 at start), or 0 when stopped. */
  public long configVersion() {
    OverloadRuntime r = running;
    return r == null ? 0 : r.configVersion();
  }

  /** What the last reload did, or null when stopped or there was none. */
  public ReloadResult lastReload() {
    OverloadRuntime r = running;
    return r == null ? null : r.lastReload();
  }

  /** Calls {@code listener} after each reload that put a new configuration in force. */
  void onReload(Runnable listener) {
    reloadListeners.add(listener);
  }

  /** Stops calling {@code listener}. */
  void removeReloadListener(Runnable listener) {
    reloadListeners.remove(listener);
  }

  /**
   * The server's graceful stop begins: every waiting or delayed request is answered 503 now and
   * no permit goes to a waiting request any more, so that the server waits for the running
   * requests only. Jetty calls it before it closes the connections (issue 33: left to
   * {@link #doStop}, the queue kept feeding the application during a 5 s stop, and the waiting
   * requests' 503s went to closed connections). The stop itself follows.
   *
   * @return done at once; the server waits for the requests in progress through its
   *     {@code GracefulHandler}
   */
  @Override
  public CompletableFuture<Void> shutdown() {
    shutdown = true;
    OverloadRuntime r = running;
    if (r != null) {
      r.shutdown();
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  /**
   * Answers every waiting or delayed request with 503 (the engine expires them) before the
   * wrapped handlers stop, then stops the timer thread; running requests still report.
   */
  @Override
  protected void doStop() throws Exception {
    ConfigFileWatch w = watch;
    watch = null;
    if (w != null) {
      w.close();
    }
    reloading.lock(); // a reload running now finishes first
    OverloadRuntime stopping;
    try {
      stopping = running;
      running = null;
      ConfigFileWatch moved = watch; // one such reload may have moved the watch
      watch = null;
      if (moved != null) {
        moved.close();
      }
    } finally {
      reloading.unlock();
    }
    if (stopping == null) {
      super.doStop();
      return;
    }
    stopping.shutdown();
    try {
      super.doStop();
    } finally {
      stopping.close();
    }
  }

  /**
   * Each endpoint's load now: its limit, the requests in flight and waiting, and its counts in
   * the configuration in force (what the JMX view shows); empty when stopped, and an endpoint is
   * in it from its first request on.
   */
  public List<EndpointSnapshot> endpointSnapshots() {
    OverloadRuntime r = running;
    return r == null ? List.of() : r.endpointSnapshots();
  }

  /** The wait queues' execution permits ({@code queue.permits}); 0 without queues or stopped. */
  public int queuePermits() {
    OverloadRuntime r = running;
    return r == null ? 0 : r.queuePermits();
  }

  /**
   * The current quality of {@code endpoint} in [0, 1], for code that has no request at hand (a
   * service class, a cache refresher); 1 when stopped, or when the endpoint is not degradable or
   * has seen no request yet. It may change from one call to the next: code serving a request
   * reads the request's own, fixed when it was admitted ({@link OverloadContext#quality()}).
   */
  public double quality(String endpoint) {
    OverloadRuntime r = running;
    return r == null ? 1.0 : r.quality(endpoint);
  }

  /**
   * What runs while the handler runs (the engine and its features), or null when stopped: for
   * the status handler, which starts its observability over it, and for the tests.
   */
  OverloadRuntime runtime() {
    return running;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    OverloadRuntime r = running;
    if (r == null
        || !r.settings().enabled()
        || request.getAttribute(OverloadContext.ATTRIBUTE) != null) {
      // Stopped, switched off, or already under control (a second handler in the chain).
      return super.handle(request, response, callback);
    }
    RequestPipeline pipeline = r.pipeline();
    Exchange exchange =
        pipeline.start(
            new JettyRequestView(request, pipeline.clients()), settings.defaultEndpoint());
    if (exchange.step().kind() == Step.Kind.PASS) {
      // A health, readiness or metrics probe: never a permit, a wait or a refusal.
      return super.handle(request, response, callback);
    }
    request.setAttribute(OverloadContext.ATTRIBUTE, exchange.context());
    return new ControlledRequest(this, exchange, request, response, callback)
        .first(exchange.step());
  }

  /** Calls the wrapped handler; false when there is none or it did not take the request. */
  boolean handleNext(Request request, Response response, Callback callback) throws Exception {
    return super.handle(request, response, callback);
  }

  /**
   * Answers a refused or expired request: by default 503 with {@code Retry-After},
   * {@code Cache-Control: no-store} and the engine's answer (an HTML page for
   * browsers, {@code application/problem+json} for the rest), the same bytes the servlet
   * filter sends. Override to answer differently (redirect, a cheaper page); the override must
   * complete {@code callback}. If it throws before the response is committed, the default
   * answer is sent, so a client never waits on a refused request.
   *
   * @param rejection why the request was refused and when to come back, the value the servlet
   *     filter's {@code RejectionHandler} receives
   */
  protected void reject(
      Request request, Response response, Callback callback, Rejection rejection) {
    JettyAnswers.rejection(request, response, callback, rejection);
  }

  @Override
  public String toString() {
    return String.format(
        "%s@%x{%s,defaultEndpoint=%s}",
        getClass().getSimpleName(), hashCode(), getState(), settings.defaultEndpoint());
  }
}
