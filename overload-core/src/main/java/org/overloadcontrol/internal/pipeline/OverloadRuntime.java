package org.overloadcontrol.internal.pipeline;

import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.overloadcontrol.EndpointSnapshot;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.cluster.ClusterCoordinator;
import org.overloadcontrol.cluster.CoordinatorFactory;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.degrade.LoggingQualityListener;
import org.overloadcontrol.degrade.QualityListener;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.bandwidth.GroupSnapshot;
import org.overloadcontrol.internal.bandwidth.ShapingDecision;
import org.overloadcontrol.internal.base.CpuClock;
import org.overloadcontrol.internal.cluster.ClusterExchange;
import org.overloadcontrol.internal.cluster.ClusterPart;
import org.overloadcontrol.internal.config.ConfigSource;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.ExecutorScheduler;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;
import org.overloadcontrol.internal.metrics.ConfigStatus;
import org.overloadcontrol.internal.metrics.EndpointLoad;
import org.overloadcontrol.internal.metrics.Observability;
import org.overloadcontrol.internal.virtualqueue.EpochClock;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueFrontEnd;
import org.overloadcontrol.queue.LoggingQueueListener;
import org.overloadcontrol.queue.QueueListener;

/**
 * What one filter or handler runs while it is started, started and stopped in one place so the
 * adapters cannot do it differently: the engine (admission, wait queues, degradation), the
 * virtual queue, the bandwidth shaper and its manager task, and the timer thread they share.
 *
 * <p>Start: {@link Builder#start} builds all of it or none; a part that fails (a bad virtual
 * queue key file, say) stops what was built before it and the exception goes on to the adapter,
 * which reports it as a failed start.
 *
 * <p>Stop, in two steps because the adapter settles its own suspended requests in between:
 * {@link #shutdown} cuts every bandwidth {@link Delay} short and ends the manager task and the
 * engine, so every delayed or waiting request is answered 503 by its adapter (requests
 * already running finish normally and may still report their outcome to the engine);
 * {@link #close} then leaves the cluster, if {@code cluster.enabled}, and stops the timer
 * thread if the runtime owns it. A scheduler given to the builder belongs to the caller and is never stopped here.
 *
 * <p>Reload ({@link #reload}, docs/guide/reload.md): a new configuration is read and validated whole
 * and either refused, the running one staying in force, or swapped in at once as a new
 * {@link Generation}. A request reads the generation once, when it starts, and finishes in it:
 * its permit goes back to the engine that gave it, a waiting request keeps its place and its
 * deadline in that engine's queues. The engine a reload replaced keeps its timers until its last
 * waiting request has left, then stops.
 */
public final class OverloadRuntime implements AutoCloseable {

  private static final OverloadLog LOG = OverloadLog.get(OverloadRuntime.class);

  /**
   * The servlet-context attribute under which the filter publishes its runtime from start to
   * stop, so that code of the application ({@code Overload.quality(context, endpoint)}) and the
   * tests can reach what runs without the filter handing out the engine. The runtime stays the
   * same over reloads; {@link #engine()} is the engine in force.
   */
  public static final String ATTRIBUTE = OverloadRuntime.class.getName();

  /** How often an engine a reload replaced is checked for waiting requests left. */
  private static final long RETIRED_CHECK_NANOS = 100_000_000L;

  /**
   * One configuration's running parts, replaced all at once by a reload; a request reads it
   * once, when it starts.
   */
  record Generation(
      Settings settings,
      OverloadEngine engine,
      VirtualQueueFrontEnd virtualQueue,
      BandwidthShaper bandwidth,
      Scheduler.Cancellable bandwidthManager,
      RequestPipeline pipeline) {

    OverloadConfig config() {
      return settings.config();
    }
  }

  private final Builder built;
  private final Scheduler scheduler;
  private final ExecutorScheduler ownScheduler;
  private final Delay.Delays delays;
  private ClusterCoordinator cluster = ClusterCoordinator.STANDALONE;
  private ClusterExchange clusterExchange;
  private Scheduler.Cancellable clusterTimer;
  private volatile Generation current;

  /** Engines a reload replaced that still have waiting requests; their timers still run. */
  private final java.util.Set<OverloadEngine> retired =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** One reload at a time; never taken by a request. */
  private final java.util.concurrent.locks.ReentrantLock reloading =
      new java.util.concurrent.locks.ReentrantLock();

  private volatile long version = 1;
  private volatile ReloadResult lastReload;
  private final java.util.concurrent.atomic.AtomicLong reloads =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong reloadFailures =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean stopped;

  private OverloadRuntime(
      Builder built,
      OverloadEngine engine,
      Scheduler scheduler,
      ExecutorScheduler ownScheduler,
      VirtualQueueFrontEnd virtualQueue,
      BandwidthShaper bandwidth,
      Scheduler.Cancellable bandwidthManager) {
    this.built = built;
    this.scheduler = scheduler;
    this.ownScheduler = ownScheduler;
    this.delays = new Delay.Delays(scheduler);
    this.current = generation(built.settings, engine, virtualQueue, bandwidth, bandwidthManager);
  }

  private Generation generation(
      Settings settings,
      OverloadEngine engine,
      VirtualQueueFrontEnd virtualQueue,
      BandwidthShaper bandwidth,
      Scheduler.Cancellable bandwidthManager) {
    return new Generation(
        settings,
        engine,
        virtualQueue,
        bandwidth,
        bandwidthManager,
        new RequestPipeline(this, engine, virtualQueue, bandwidth, built.wallClock));
  }

  /**
   * The per-request life cycle over this runtime's parts now; see {@link RequestPipeline}. A
   * reload replaces it: read it once per request.
   */
  public RequestPipeline pipeline() {
    return current.pipeline();
  }

  /** A builder for the runtime of {@code config}, every section of it validated here. */
  public static Builder builder(OverloadConfig config) {
    return builder(Settings.of(config));
  }

  /** A builder for the runtime of {@code settings}: each feature is handed its own section. */
  public static Builder builder(Settings settings) {
    return new Builder(settings);
  }

  /** The configuration in force now. */
  public OverloadConfig config() {
    return current.config();
  }

  /** The configuration in force now, every section parsed. */
  public Settings settings() {
    return current.settings();
  }

  /**
   * Whether refusals are answered 429 because {@code rejectionStatus} is {@code auto} and the
   * container closes the connection after a 503: an adapter says so at start, since README and
   * most guides say 503.
   */
  public boolean answers429ForTheContainer() {
    return engine().answers429ForTheContainer();
  }

  /** The engine of the configuration in force now; a reload replaces it. */
  public OverloadEngine engine() {
    return current.engine();
  }

  /** Each endpoint's load now in the engine in force, copied; none before its first request. */
  public List<EndpointSnapshot> endpointSnapshots() {
    return EndpointLoad.of(current.engine()).stream().map(EndpointLoad::snapshot).toList();
  }

  /** The wait queues' execution permits ({@code queue.permits}) in force; 0 without queues. */
  public int queuePermits() {
    return current.engine().queueSettings().permits();
  }

  /**
   * The current quality of {@code endpoint} in [0, 1] in the engine in force, for code with no
   * request at hand; 1 when it is not degradable or has seen no request.
   */
  public double quality(String endpoint) {
    return current.engine().quality(endpoint);
  }

  /** The timers every part uses: the given scheduler, or the runtime's own thread. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** The virtual queue's front end; never null, {@code enabled()} is false when not configured. */
  public VirtualQueueFrontEnd virtualQueue() {
    return current.virtualQueue();
  }

  /** The bandwidth shaper, or null when bandwidth shares are not configured or switched off. */
  public BandwidthShaper bandwidth() {
    return current.bandwidth();
  }

  /** Bandwidth groups as measured now; empty when bandwidth shares are not configured. */
  public List<GroupSnapshot> bandwidthSnapshot() {
    BandwidthShaper bandwidth = current.bandwidth();
    return bandwidth == null ? List.of() : bandwidth.snapshot();
  }

  /**
   * A builder for the observability of this runtime (docs/observability.md): its engine and
   * timer thread, and its bandwidth shares and virtual queue when configured, so the registry,
   * status document and Prometheus text show all three. Each adapter adds what its container
   * knows (a registry, a context path); the caller builds, owns and closes the result.
   *
   * <p>Its gauges read the parts of the configuration in force when it is built: after an
   * applied {@link #reload} the adapter closes it and builds it again (the metric names stay;
   * the counts of the new engine start from zero, as a counter does at a restart). The
   * configuration's version and last reload are read from this runtime at each read.
   */
  public Observability.Builder observability() {
    Generation g = current;
    return Observability.builder(g.engine())
        .settings(g.settings().metrics())
        .scheduler(scheduler())
        .bandwidth(g.bandwidth())
        .virtualQueue(g.virtualQueue().queue())
        .configStatus(this::configStatus);
  }

  /** The version in force and the last reload, as the status page and metrics show them. */
  public ConfigStatus configStatus() {
    ReloadResult last = lastReload;
    return last == null
        ? new ConfigStatus(version, reloads.get(), reloadFailures.get(), null, null, null)
        : new ConfigStatus(
            version, reloads.get(), reloadFailures.get(), last.at(), last.result(), last.message());
  }

  /**
   * Holds a request of a group over its bandwidth share for its delay, on this runtime's
   * timers; {@link #shutdown} cuts it short if it is still held.
   */
  Delay delay(RequestTag tag, ShapingDecision shaping, Delay.Target target) {
    return delay(engine(), tag, shaping, target);
  }

  /** As {@link #delay(RequestTag, ShapingDecision, Delay.Target)}, for a request of {@code engine}. */
  Delay delay(OverloadEngine engine, RequestTag tag, ShapingDecision shaping, Delay.Target target) {
    return delays.start(engine, tag, shaping, target);
  }

  /** The cluster this node shares its waiting room with; standalone unless cluster.enabled. */
  public ClusterCoordinator cluster() {
    return cluster;
  }

  /** Requests waiting in the wait queues of the engine in force now; 0 when queues are off. */
  public int waitingCount() {
    OverloadEngine engine = current.engine();
    return engine.queues() == null ? 0 : engine.queues().waitingCount();
  }

  /** Requests held for their bandwidth delay now. */
  public int delayedCount() {
    return delays.size();
  }

  /**
   * Stops admitting: every delayed request is cut short (its adapter answers 503), the
   * bandwidth manager task ends and the engine shuts down, expiring every waiting request.
   * Requests already running are not touched. Safe to call more than once.
   */
  public void shutdown() {
    reloading.lock();
    try {
      stopped = true;
    } finally {
      reloading.unlock();
    }
    delays.stop();
    Generation g = current;
    if (g.bandwidthManager() != null) {
      g.bandwidthManager().cancel();
    }
    if (clusterTimer != null) {
      clusterTimer.cancel();
    }
    g.engine().shutdown();
    for (OverloadEngine old : retired) {
      old.shutdown();
      retired.remove(old);
    }
  }

  /** The configuration version in force: 1 at start, one more for each applied reload. */
  public long configVersion() {
    return version;
  }

  /** What the last reload did, or null when there was none yet. */
  public ReloadResult lastReload() {
    return lastReload;
  }

  /** Reloads asked for, applied or refused. */
  public long reloadsTotal() {
    return reloads.get();
  }

  /** Reloads refused. */
  public long reloadFailuresTotal() {
    return reloadFailures.get();
  }

  /**
   * Reads a new configuration and, when it is valid as a whole, puts it in force between
   * requests; otherwise refuses it and the running configuration stays in force. Either way one
   * log line says what happened. See {@link ConfigReload} for what carries over.
   *
   * @param read the adapter's whole read of its layers, parsed and validated as at start; an
   *     {@link OverloadConfigException} (or any other exception, e.g. an unreadable file) it
   *     throws refuses the reload with its message
   */
  public ReloadResult reload(java.util.concurrent.Callable<Settings> read) {
    reloading.lock();
    try {
      ReloadResult result = new ConfigReload(this).run(read);
      reloads.incrementAndGet();
      if (!result.applied()) {
        reloadFailures.incrementAndGet();
      }
      lastReload = result;
      return result;
    } finally {
      reloading.unlock();
    }
  }

  /** {@link #reload(java.util.concurrent.Callable)} of layers of flat keys. */
  public ReloadResult reload(List<ConfigSource> layers) {
    List<ConfigSource> copy = List.copyOf(layers);
    return reload(() -> Settings.parse(copy));
  }

  /** Whether {@link #shutdown} has begun: a reload then changes nothing. */
  boolean stopped() {
    return stopped;
  }

  /** The builder's inputs, which every generation is built with alike. */
  Builder built() {
    return built;
  }

  /** The generation in force. */
  Generation current() {
    return current;
  }

  /** Whether this runtime is one node of a cluster. */
  boolean clustered() {
    return cluster != ClusterCoordinator.STANDALONE;
  }

  /**
   * Puts the parts of a reloaded configuration in force and retires the engine they replace:
   * it keeps its timers until its last waiting request has left (run or expired), then stops.
   */
  long swap(
      Settings settings,
      OverloadEngine engine,
      VirtualQueueFrontEnd virtualQueue,
      BandwidthShaper bandwidth,
      Scheduler.Cancellable bandwidthManager) {
    Generation before = current;
    current = generation(settings, engine, virtualQueue, bandwidth, bandwidthManager);
    if (before.bandwidthManager() != null && before.bandwidthManager() != bandwidthManager) {
      before.bandwidthManager().cancel();
    }
    retire(before.engine());
    return ++version;
  }

  private void retire(OverloadEngine old) {
    retired.add(old);
    java.util.concurrent.atomic.AtomicReference<Scheduler.Cancellable> check =
        new java.util.concurrent.atomic.AtomicReference<>();
    Runnable task =
        () -> {
          if (old.queues() == null || old.queues().waitingCount() == 0) {
            // Requests it admitted may still run: they report to it as after a stop.
            old.shutdown();
            retired.remove(old);
            Scheduler.Cancellable c = check.get();
            if (c != null) {
              c.cancel();
            }
          }
        };
    check.set(scheduler.scheduleAtFixedRate(task, RETIRED_CHECK_NANOS));
  }

  /** Engines a reload replaced that still hold waiting requests. */
  int retiredEngines() {
    return retired.size();
  }

  /** Logs one reload's line. */
  static void log(ReloadResult result) {
    if (result.applied()) {
      LOG.info(
          "overload-control: configuration version {} in force; {}",
          result.version(),
          result.message());
    } else {
      LOG.warn(
          "overload-control: reload refused, configuration version {} stays in force: {}",
          result.version(),
          result.message());
    }
  }

  /** {@link #shutdown}, then stops the timer thread if the runtime started it. */
  @Override
  public void close() {
    shutdown();
    if (clusterExchange != null) {
      clusterExchange.leave();
    }
    cluster.close();
    if (ownScheduler != null) {
      ownScheduler.close();
    }
  }

  /** Builds and starts an {@link OverloadRuntime}; the adapter supplies time and listeners. */
  public static final class Builder {
    // Package-visible: a reload builds the next generation's parts with the same inputs.
    final Settings settings;
    final OverloadConfig config;
    Ticker ticker = Ticker.system();
    Clock wallClock = Clock.systemUTC();
    private Scheduler scheduler;
    private String threadName = "overload-control";
    AdmissionListener admissionListener = AdmissionListener.NONE;
    QueueListener queueListener = new LoggingQueueListener();
    QualityListener qualityListener = new LoggingQualityListener();
    Function<String, InputStream> webAppResources = path -> null;
    FrameworkRoutes frameworkRoutes = FrameworkRoutes.NONE;
    CpuClock cpuClock = new PlatformCpuClock();
    boolean closesConnectionAfter503;

    private Builder(Settings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      this.config = settings.config();
    }

    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    /** The wall clock virtual-queue tokens are anchored to. */
    public Builder wallClock(Clock value) {
      this.wallClock = Objects.requireNonNull(value, "wallClock");
      return this;
    }

    /**
     * Timers owned by the caller; null (the default) makes the runtime start a daemon thread
     * named {@code threadName} and stop it in {@link OverloadRuntime#close}.
     */
    public Builder scheduler(Scheduler value, String threadName) {
      this.scheduler = value;
      this.threadName = Objects.requireNonNull(threadName, "threadName");
      return this;
    }

    public Builder admissionListener(AdmissionListener value) {
      this.admissionListener = Objects.requireNonNull(value, "admissionListener");
      return this;
    }

    /** Told of every LIFO/FIFO switch; by default one log line per switch. */
    public Builder queueListener(QueueListener value) {
      this.queueListener = Objects.requireNonNull(value, "queueListener");
      return this;
    }

    /** Told of every degradation period; by default one log line per change. */
    public Builder qualityListener(QualityListener value) {
      this.qualityListener = Objects.requireNonNull(value, "qualityListener");
      return this;
    }

    /** Where a {@code virtualQueue.keyFile} under {@code /WEB-INF/} is read from. */
    public Builder webAppResources(Function<String, InputStream> value) {
      this.webAppResources = Objects.requireNonNull(value, "webAppResources");
      return this;
    }

    /** Routes a framework module contributed (see {@code OverloadEngine.Builder}). */
    public Builder frameworkRoutes(FrameworkRoutes value) {
      this.frameworkRoutes = Objects.requireNonNull(value, "frameworkRoutes");
      return this;
    }

    /**
     * The CPU clocks the concurrency limits read (see {@code OverloadEngine.Builder}); null (the
     * default) reads the platform's. Adapters pass on what their tests inject.
     */
    public Builder cpuClock(CpuClock value) {
      this.cpuClock = value != null ? value : new PlatformCpuClock();
      return this;
    }

    /**
     * Whether the container closes the connection after every 503, as Tomcat does: then {@code
     * rejectionStatus: auto} answers refusals 429 (see {@code OverloadEngine.Builder}).
     */
    public Builder closesConnectionAfter503(boolean value) {
      this.closesConnectionAfter503 = value;
      return this;
    }

    /** The routes a framework module left for the filter ({@link ContributedRoutes}). */
    public Builder frameworkRoutes(ContributedRoutes value) {
      return frameworkRoutes(value.routes());
    }

    /**
     * Builds and starts every part, or none of them.
     *
     * @throws OverloadConfigException naming the key of a section that cannot start
     */
    public OverloadRuntime start() {
      ExecutorScheduler own = scheduler == null ? new ExecutorScheduler(threadName) : null;
      Scheduler timers = own != null ? own : scheduler;
      OverloadEngine engine = null;
      ClusterCoordinator cluster = ClusterCoordinator.STANDALONE;
      try {
        cluster =
            CoordinatorFactory.forSettings(
                settings.cluster(), OverloadRuntime.class.getClassLoader());
        engine =
            OverloadEngine.builder(config)
                .sections(
                    settings.admission(), settings.queue(), settings.degrade(), settings.sessions())
                .ticker(ticker)
                .scheduler(timers)
                .admissionListener(admissionListener)
                .queueListener(queueListener)
                .qualityListener(qualityListener)
                .cpuUtilisation(CpuLoad.process())
                .machineCpuLoad(CpuLoad.machine())
                .cpuClock(cpuClock)
                .closesConnectionAfter503(closesConnectionAfter503)
                .sessionKeys(SessionKeys.load(settings, System::getenv, webAppResources))
                .frameworkRoutes(frameworkRoutes)
                .build();
        engine.createConfiguredEndpoints();
        // A capacity estimate is slow work: it runs on the timer thread, never a request's.
        VirtualQueueFrontEnd virtualQueue =
            VirtualQueueFrontEnd.create(
                settings.virtualQueue(),
                ticker,
                wallClock,
                task -> timers.schedule(task, 0L),
                webAppResources,
                cluster);
        BandwidthShaper bandwidth = new BandwidthShaper(settings.bandwidth(), ticker);
        Scheduler.Cancellable manager = null;
        EpochClock wall = EpochClock.anchored(ticker, wallClock);
        boolean clustered = cluster != ClusterCoordinator.STANDALONE;
        if (bandwidth.settings().enabled()) {
          long period = bandwidth.settings().managerPeriodNanos();
          // In a cluster every node measures the same periods (AlignedTimer).
          manager =
              clustered
                  ? AlignedTimer.start(timers, wall, period, 0, bandwidth::managerRound)
                  : timers.scheduleAtFixedRate(bandwidth::managerRound, period);
        } else {
          bandwidth = null;
        }
        OverloadRuntime runtime =
            new OverloadRuntime(this, engine, timers, own, virtualQueue, bandwidth, manager);
        if (cluster != ClusterCoordinator.STANDALONE) {
          runtime.cluster = cluster;
          runtime.clusterExchange = clusterExchange(cluster, virtualQueue, bandwidth);
          // On every node alike: each publishes its b-hat of the round just ended while the
          // others publish theirs, then reads theirs once they have landed.
          runtime.clusterTimer = exchangeTimers(timers, wall, runtime.clusterExchange);
        }
        return runtime;
      } catch (RuntimeException | Error e) {
        if (engine != null) {
          engine.shutdown();
        }
        cluster.close();
        if (own != null) {
          own.close();
        }
        throw e;
      }
    }

    /** The exchange's three steps at their moments of each period. */
    private static Scheduler.Cancellable exchangeTimers(
        Scheduler timers, EpochClock wall, ClusterExchange exchange) {
      long period = ClusterExchange.PERIOD_NANOS;
      Scheduler.Cancellable publish =
          AlignedTimer.start(
              timers, wall, period, ClusterExchange.PUBLISH_AT_NANOS, exchange::publish);
      Scheduler.Cancellable fetch =
          AlignedTimer.start(timers, wall, period, ClusterExchange.FETCH_AT_NANOS, exchange::fetch);
      Scheduler.Cancellable apply =
          AlignedTimer.start(timers, wall, period, ClusterExchange.APPLY_AT_NANOS, exchange::apply);
      return () -> {
        publish.cancel();
        fetch.cancel();
        apply.cancel();
      };
    }

    /** WebQ's exchange between replicas (§III-B) for the parts that are on. */
    private ClusterExchange clusterExchange(
        ClusterCoordinator cluster, VirtualQueueFrontEnd virtualQueue, BandwidthShaper bandwidth) {
      java.util.List<ClusterPart> parts = new java.util.ArrayList<>();
      if (virtualQueue.enabled()) {
        parts.add(virtualQueue.queue());
      }
      if (bandwidth != null) {
        parts.add(bandwidth);
      }
      EpochClock clock = EpochClock.anchored(ticker, wallClock);
      return new ClusterExchange(cluster, () -> clock.epochSecond(clock.nanos()), parts);
    }
  }
}
