package org.overloadcontrol.servlet;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.time.Clock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.ClientAddresses;
import org.overloadcontrol.internal.pipeline.ConfigFileWatch;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.internal.pipeline.RequestPipeline;
import org.overloadcontrol.internal.pipeline.Settings;
import org.overloadcontrol.internal.pipeline.TargetRoutes;

/**
 * What an {@link OverloadFilter} holds from {@code init} to {@code destroy}: its configuration,
 * the running engine and features ({@link OverloadRuntime}), its observability, and what it
 * publishes in the servlet context (the runtime, under {@link OverloadRuntime#ATTRIBUTE}, and the
 * observability). Starting and stopping all of it is this class's job, so
 * the filter only translates requests.
 */
final class RunningFilter {

  private static final OverloadLog LOG = OverloadLog.get(OverloadFilter.class);
  private static final RejectionHandler DEFAULT_REJECTION = new DefaultRejectionHandler();

  // What every request asks for, as final fields read through one object (in a server each
  // object a request touches tends to be a cache miss, docs/performance.md).
  final boolean enabled;

  /**
   * The configuration in force, as requests are routed by it; a reload replaces it whole, and a
   * request reads it once.
   */
  volatile Routing routing;

  /** Carries out the engine's steps with the servlet API. */
  final ServletSteps steps;

  /** Says once that a layer in front (the Jetty handler) controls the requests instead. */
  final TakeoverNotice takeover;

  /** Says once that requests run on virtual threads, when the start did not. */
  final VirtualThreadNotice virtualThreads;

  /** Requests suspended (delayed, waiting, or async) whose outcome is not settled yet. */
  private final SuspendedRequest.Registry suspended;

  private final ServletContext servletContext;
  private final FilterConfig filterConfig;
  private final OverloadRuntime runtime;
  private volatile ObservabilityHandle observability;

  /** Watches the YAML files on disk and reloads when one changes; null when none is on disk. */
  private final ConfigFileWatch watch;

  /** One reload at a time, from the file watch or a caller. */
  private final ReentrantLock reloading = new ReentrantLock();

  /** Stops admitting when the container's graceful stop begins, before {@link #stop}. */
  private final GracefulStopSignal gracefulStop;

  private RunningFilter(
      FilterConfiguration read,
      OverloadRuntime runtime,
      SuspendedRequest.Registry suspended,
      FilterConfig filterConfig,
      ObservabilityHandle observability) {
    Settings settings = read.settings();
    this.servletContext = filterConfig.getServletContext();
    this.filterConfig = filterConfig;
    this.runtime = runtime;
    this.suspended = suspended;
    this.observability = observability;
    this.routing = Routing.of(runtime, read, servletContext);
    this.steps = new ServletSteps(read.rejectionHandler(), suspended);
    this.takeover = new TakeoverNotice(servletContext, filterConfig.getFilterName());
    this.enabled = settings.enabled();
    this.gracefulStop = GracefulStopSignal.listen(servletContext, this::stopAdmitting);
    this.virtualThreads =
        new VirtualThreadNotice(
            servletContext,
            filterConfig.getFilterName(),
            read.virtualThreads() != null,
            defaultMaxLimit(read),
            read.maxLimitFromThreads());
    this.watch =
        ConfigFileWatch.start(
            FilterConfiguration.filesOnDisk(filterConfig), runtime.scheduler(), this::reload);
  }

  /**
   * How requests are routed under one configuration: the servlet routes and client resolver
   * built over its pipeline.
   */
  record Routing(ClientAddresses clients, TargetRoutes routes) {

    static Routing of(OverloadRuntime runtime, FilterConfiguration read, ServletContext context) {
      RequestPipeline pipeline = runtime.pipeline();
      return new Routing(
          pipeline.clients(),
          new TargetRoutes(pipeline, read.endpointByServlet(), StatusServlets.names(context)));
    }
  }

  /** The runtime, whose version and last reload the filter reports. */
  OverloadRuntime runtime() {
    return runtime;
  }

  /**
   * Reads every layer again as at start and, when the whole is valid, puts it in force between
   * requests (docs/guide/reload.md); otherwise the running configuration stays. The runtime logs one
   * line either way; an applied reload also rebuilds the observability over the new engine.
   */
  ReloadResult reload() {
    reloading.lock();
    try {
      FilterConfiguration[] read = new FilterConfiguration[1];
      long before = runtime.configVersion();
      ReloadResult result =
          runtime.reload(
              () -> {
                read[0] = FilterConfiguration.read(filterConfig, DEFAULT_REJECTION);
                return read[0].settings();
              });
      if (result.applied() && result.version() != before) {
        routing = Routing.of(runtime, read[0], servletContext);
        renewObservability();
      }
      return result;
    } finally {
      reloading.unlock();
    }
  }

  /**
   * Closes the observability of the replaced engine, which removes its metrics, and registers
   * the same names over the new one.
   */
  private void renewObservability() {
    ObservabilityHandle old = observability;
    old.close();
    try {
      ObservabilityHandle fresh =
          ObservabilityHandle.start(
              runtime,
              servletContext.getAttribute(ObservabilityHandle.REGISTRY_ATTRIBUTE),
              servletContext.getContextPath());
      observability = fresh;
      servletContext.setAttribute(ObservabilityHandle.ATTRIBUTE, fresh.published());
    } catch (RuntimeException e) {
      // Only the metrics are lost, and said so; the reloaded configuration stays in force.
      LOG.warn("overload-control: metrics after the reload could not start: {}", e.toString());
    }
  }

  /** The ceiling of the default group's concurrency limit (an endpoint no group names). */
  private static int defaultMaxLimit(FilterConfiguration read) {
    return read.settings().maxLimit("");
  }

  /**
   * Reads the configuration, starts the engine and its features, publishes the runtime and the
   * observability in the servlet context and logs the start line.
   *
   * @param scheduler timers owned by the caller, or null for the runtime's own thread
   * @param options what the caller changes on the runtime's builder (tests: the CPU clocks)
   * @throws ServletException naming the key, value and origin of a configuration problem
   */
  static RunningFilter start(
      FilterConfig filterConfig,
      Ticker ticker,
      Clock wallClock,
      AdmissionListener listener,
      Scheduler scheduler,
      UnaryOperator<OverloadRuntime.Builder> options)
      throws ServletException {
    ServletContext context = filterConfig.getServletContext();
    FilterConfiguration read;
    OverloadRuntime runtime;
    try {
      read = FilterConfiguration.read(filterConfig, DEFAULT_REJECTION);
      runtime =
          options
              .apply(
                  OverloadRuntime.builder(read.settings())
                      .ticker(ticker)
                      .wallClock(wallClock)
                      .scheduler(scheduler, "overload-control-" + filterConfig.getFilterName())
                      .admissionListener(listener)
                      .webAppResources(context::getResourceAsStream)
                      .frameworkRoutes(read.frameworkRoutes())
                      .closesConnectionAfter503(ContainerConnections.closedAfter503(context)))
              .start();
    } catch (OverloadConfigException e) {
      throw failed(context, e);
    }
    AsyncSupportNotice.atStart(context, runtime.settings());
    context.setAttribute(OverloadRuntime.ATTRIBUTE, runtime);
    ObservabilityHandle observability;
    try {
      // Metrics, JMX, the overload log and the status servlet's data; docs/observability.md.
      observability =
          ObservabilityHandle.start(
              runtime,
              context.getAttribute(ObservabilityHandle.REGISTRY_ATTRIBUTE),
              context.getContextPath());
    } catch (OverloadConfigException e) {
      context.removeAttribute(OverloadRuntime.ATTRIBUTE);
      runtime.shutdown();
      runtime.close();
      throw failed(context, e);
    }
    context.setAttribute(ObservabilityHandle.ATTRIBUTE, observability.published());
    RunningFilter running =
        new RunningFilter(
            read, runtime, new SuspendedRequest.Registry(), filterConfig, observability);
    Settings settings = read.settings();
    LOG.info(
        "overload-control: filter '{}' started ({} classes, {} configured endpoints{}{}{})",
        filterConfig.getFilterName(),
        settings.classCount(),
        settings.endpointCount(),
        settings.enabled() ? "" : ", disabled",
        refusalNotice(runtime),
        read.virtualThreads() == null
            ? ""
            : VirtualThreadNotice.atStart(read.virtualThreads(), defaultMaxLimit(read)));
    return running;
  }

  /**
   * Says so when {@code rejectionStatus: auto} chose 429 (the container closes the connection
   * after a 503), since README and most guides say 503.
   */
  static String refusalNotice(OverloadRuntime runtime) {
    return runtime.answers429ForTheContainer()
        ? ", refusals answered 429: this container closes the connection after a 503"
            + " (rejectionStatus)"
        : "";
  }

  private static ServletException failed(ServletContext context, OverloadConfigException e) {
    ContainerLog.error(context, e.getMessage());
    return new ServletException(e.getMessage(), e);
  }

  /**
   * The container has begun a graceful stop: every waiting or delayed request is answered 503
   * now and no permit goes to a waiting request any more, so that the container's wait for the
   * requests in progress is a wait for the running ones only. {@link #stop} follows.
   */
  private void stopAdmitting() {
    LOG.info(
        "overload-control: the container is stopping; waiting requests are answered 503 ({})",
        runtime.waitingCount());
    runtime.shutdown();
  }

  /**
   * Stops everything {@link #start} started: every waiting request is answered 503 (the queues
   * expire them), requests suspended while running are settled, then the timer thread stops.
   * Requests already running finish normally.
   */
  void stop() {
    gracefulStop.close();
    if (watch != null) {
      watch.close();
    }
    // A reload running now finishes first; none starts after this (the runtime stops).
    reloading.lock();
    reloading.unlock();
    ObservabilityHandle observability = this.observability;
    observability.close();
    if (observability.isPublishedAs(servletContext.getAttribute(ObservabilityHandle.ATTRIBUTE))) {
      servletContext.removeAttribute(ObservabilityHandle.ATTRIBUTE);
    }
    suspended.stop();
    // Cuts every delay short and expires every waiting request, each answered 503; running
    // ones are left alone.
    runtime.shutdown();
    for (SuspendedRequest s : suspended.snapshot()) {
      settleSafely(s::settleRunningAtShutdown);
    }
    if (servletContext.getAttribute(OverloadRuntime.ATTRIBUTE) == runtime) {
      servletContext.removeAttribute(OverloadRuntime.ATTRIBUTE);
    }
    runtime.close();
  }

  /** One request's trouble at the stop must not keep the others from their outcome. */
  private static void settleSafely(Runnable settle) {
    try {
      settle.run();
    } catch (RuntimeException e) {
      LOG.debug("overload-control: settling a request at the stop failed", e);
    }
  }
}
