package org.overloadcontrol.jetty;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.degrade.LoggingQualityListener;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.Settings;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.QueueListener;

/**
 * What an {@link OverloadHandler} is told before it starts: the values its Jetty XML setters
 * and {@link OverloadHandlerBuilder} write, held in one place so the handler only translates
 * requests, and the builder and the setters cannot disagree on defaults or validation. It also
 * turns these settings into a running {@link OverloadRuntime} when the handler starts.
 */
final class HandlerSettings {

  private static final OverloadLog LOG = OverloadLog.get(OverloadHandler.class);

  /** True while the handler these settings belong to starts or runs. */
  private final BooleanSupplier frozen;

  private final Map<String, String> keys = new LinkedHashMap<>();
  private String configFile;
  private String baseDirectory;
  private String defaultEndpoint = OverloadHandler.DEFAULT_ENDPOINT;
  private Ticker ticker = Ticker.system();
  private Clock wallClock = Clock.systemUTC();
  private Scheduler scheduler;
  private AdmissionListener admissionListener = AdmissionListener.NONE;
  private QueueListener queueListener = new LoggingQueueListener();
  private QualityListener qualityListener = new LoggingQualityListener();
  private UnaryOperator<OverloadRuntime.Builder> runtimeOptions = UnaryOperator.identity();

  /** Settings that refuse every change while {@code frozen} says so. */
  HandlerSettings(BooleanSupplier frozen) {
    this.frozen = frozen;
  }

  /**
   * A copy for a handler, frozen as it says, so a builder used twice does not share its
   * settings between two handlers.
   */
  HandlerSettings copy(BooleanSupplier handlerFrozen) {
    HandlerSettings c = new HandlerSettings(handlerFrozen);
    c.keys.putAll(keys);
    c.configFile = configFile;
    c.baseDirectory = baseDirectory;
    c.defaultEndpoint = defaultEndpoint;
    c.ticker = ticker;
    c.wallClock = wallClock;
    c.scheduler = scheduler;
    c.admissionListener = admissionListener;
    c.queueListener = queueListener;
    c.qualityListener = qualityListener;
    c.runtimeOptions = runtimeOptions;
    return c;
  }

  void put(String key, String value) {
    checkNotFrozen();
    keys.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
  }

  Map<String, String> keys() {
    return Map.copyOf(keys);
  }

  void configFile(String path) {
    checkNotFrozen();
    this.configFile = blankToNull(path);
  }

  String configFile() {
    return configFile;
  }

  void baseDirectory(String directory) {
    checkNotFrozen();
    this.baseDirectory = blankToNull(directory);
  }

  String baseDirectory() {
    return baseDirectory;
  }

  void defaultEndpoint(String name) {
    checkNotFrozen();
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "defaultEndpoint must be a non-empty name, was '" + name + "'");
    }
    this.defaultEndpoint = name.trim();
  }

  String defaultEndpoint() {
    return defaultEndpoint;
  }

  void ticker(Ticker value) {
    checkNotFrozen();
    this.ticker = Objects.requireNonNull(value, "ticker");
  }

  void wallClock(Clock value) {
    checkNotFrozen();
    this.wallClock = Objects.requireNonNull(value, "clock");
  }

  /** Null: the runtime owns a daemon timer thread, started and stopped with the handler. */
  void scheduler(Scheduler value) {
    checkNotFrozen();
    this.scheduler = value;
  }

  /** What the package's tests change on the runtime's builder (the CPU clocks they read). */
  void runtimeOptions(UnaryOperator<OverloadRuntime.Builder> options) {
    checkNotFrozen();
    this.runtimeOptions = Objects.requireNonNull(options, "options");
  }

  void admissionListener(AdmissionListener value) {
    checkNotFrozen();
    this.admissionListener = Objects.requireNonNull(value, "listener");
  }

  void queueListener(QueueListener value) {
    checkNotFrozen();
    this.queueListener = Objects.requireNonNull(value, "listener");
  }

  void qualityListener(QualityListener value) {
    checkNotFrozen();
    this.qualityListener = Objects.requireNonNull(value, "listener");
  }

  QualityListener qualityListener() {
    return qualityListener;
  }

  private void checkNotFrozen() {
    if (frozen.getAsBoolean()) {
      throw new IllegalStateException(
          "the settings of a started OverloadHandler cannot change; stop it first");
    }
  }

  /** The configuration, validated; see {@link OverloadHandler#checkConfig}. */
  Settings parse(Server server) {
    return parse(server, keys);
  }

  /**
   * The configuration with {@code javaKeys} in place of the keys given in Java or XML (a
   * reload with new keys), validated as at start.
   */
  Settings parse(Server server, Map<String, String> javaKeys) {
    return HandlerConfiguration.parse(
        javaKeys, configFile, baseDirectory, defaultEndpoint, serverThreads(server));
  }

  /**
   * The YAML files on disk the handler reads with {@code javaKeys} (the keys given in Java, or
   * those a reload put in their place), for the reload's watch: its configuration file and the
   * operator's file.
   */
  java.util.List<java.nio.file.Path> files(Map<String, String> javaKeys) {
    java.util.List<java.nio.file.Path> files = new java.util.ArrayList<>();
    String file = configFile != null ? configFile : javaKeys.get("configFile");
    if (file != null && !file.isBlank()) {
      files.add(HandlerConfiguration.resolve(file.trim(), baseDirectory));
    }
    java.nio.file.Path operator = org.overloadcontrol.internal.pipeline.OperatorConfigFile.path();
    if (operator != null) {
      files.add(operator);
    }
    return files;
  }

  /**
   * Parses the configuration and starts the engine and its features; logs the one start line,
   * or the problem that stopped the start (before rethrowing it, so it is in the server's log
   * even when the caller only prints the exception).
   */
  OverloadRuntime start(Server server) {
    try {
      Settings settings = parse(server);
      OverloadRuntime runtime =
          runtimeOptions
              .apply(
                  OverloadRuntime.builder(settings)
                      .ticker(ticker)
                      .wallClock(wallClock)
                      .scheduler(scheduler, "overload-control-jetty")
                      .admissionListener(admissionListener)
                      .queueListener(queueListener)
                      .qualityListener(qualityListener))
              .start();
      LOG.info(
          "overload-control: Jetty handler started ({} classes, {} configured endpoints,"
              + " default endpoint '{}'{}{})",
          settings.classCount(),
          settings.endpointCount(),
          defaultEndpoint,
          settings.enabled() ? "" : ", disabled",
          virtualThreads(server)
              ? "; requests run on virtual threads ("
                  + server.getThreadPool().getClass().getSimpleName()
                  + "): no thread pool bounds them, the concurrency limit's ceiling is"
                  + " admission.maxLimit ("
                  + settings.maxLimit(defaultEndpoint)
                  + ")"
              : "");
      return runtime;
    } catch (RuntimeException e) {
      LOG.error("{}", e.getMessage());
      throw e;
    }
  }

  /**
   * The size of the server's thread pool, the default of {@code admission.maxLimit}; 0 before
   * the handler is on a server or for a pool of unknown size.
   */
  private static int serverThreads(Server server) {
    return server != null
            && !virtualThreads(server)
            && server.getThreadPool() instanceof ThreadPool.SizedThreadPool pool
        ? Math.max(0, pool.getMaxThreads())
        : 0;
  }

  /**
   * Whether the server runs jobs on virtual threads (its {@code VirtualThreadPool}, or a
   * {@code QueuedThreadPool} handing them to a virtual-thread executor): then no pool of threads
   * bounds the requests, and its {@code maxThreads} is no ceiling for the concurrency limit.
   */
  private static boolean virtualThreads(Server server) {
    return server != null && VirtualThreads.isUseVirtualThreads(server.getThreadPool());
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
