package org.overloadcontrol.internal.pipeline;

import java.time.Instant;
import java.util.concurrent.Callable;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.virtualqueue.VirtualQueueFrontEnd;

/**
 * One reload of a running {@link OverloadRuntime}, all or nothing: the adapter's read of its
 * layers is validated whole with the messages of a start (key, value, layer), the changed keys
 * are compared with those that cannot change at run time ({@link RestartOnlyKeys}), and only
 * then are the new parts built and swapped in at once.
 *
 * <p>What carries over: the new engine starts from the replaced one's concurrency limits, learned
 * rates and session table (and keys) where the same group, endpoint and class still exist;
 * the virtual queue and the bandwidth shaper are the same objects when their keys did not
 * change, and a rebuilt virtual queue keeps the token keys. What is new starts fresh.
 */
final class ConfigReload {

  private final OverloadRuntime runtime;

  ConfigReload(OverloadRuntime runtime) {
    this.runtime = runtime;
  }

  /** Reads, checks and applies; logs one line either way. */
  ReloadResult run(Callable<Settings> read) {
    OverloadRuntime.Builder b = runtime.built();
    Instant at = Instant.now(b.wallClock);
    ReloadResult result;
    try {
      result = apply(read, at);
    } catch (OverloadConfigException e) {
      result = refused(at, e.getMessage());
    } catch (Exception | LinkageError e) {
      // An unreadable file, a key file gone: refused like a bad value, with what was wrong.
      result = refused(at, "overload-control configuration: cannot reload: " + e.getMessage());
    }
    OverloadRuntime.log(result);
    return result;
  }

  private ReloadResult refused(Instant at, String message) {
    return new ReloadResult(at, false, runtime.configVersion(), message, java.util.List.of());
  }

  private ReloadResult apply(Callable<Settings> read, Instant at) throws Exception {
    if (runtime.stopped()) {
      return refused(at, "overload-control: stopping; nothing is reloaded any more");
    }
    // Every section, as at start: nothing is left to fail on the first request after it.
    Settings next = read.call();
    Settings running = runtime.settings();
    ConfigChanges changes = ConfigChanges.between(running.config(), next.config());
    if (changes.isEmpty()) {
      return new ReloadResult(
          at, true, runtime.configVersion(), "no key changed", java.util.List.of());
    }
    RestartOnlyKeys.require(running, next.config(), changes);
    long version = build(next, changes);
    return new ReloadResult(
        at, true, version, "changed " + String.join(", ", changes.lines()), changes.lines());
  }

  /** Builds the new parts and swaps them in; on a failure stops what it built and throws. */
  private long build(Settings next, ConfigChanges changes) {
    OverloadRuntime.Builder b = runtime.built();
    Scheduler timers = runtime.scheduler();
    OverloadEngine before = runtime.engine();
    OverloadEngine engine = null;
    Scheduler.Cancellable manager = null;
    try {
      engine =
          OverloadEngine.builder(next.config())
              .sections(next.admission(), next.queue(), next.degrade(), next.sessions())
              .ticker(b.ticker)
              .scheduler(timers)
              .admissionListener(b.admissionListener)
              .queueListener(b.queueListener)
              .qualityListener(b.qualityListener)
              .cpuUtilisation(CpuLoad.process())
              .machineCpuLoad(CpuLoad.machine())
              .cpuClock(b.cpuClock)
              .closesConnectionAfter503(b.closesConnectionAfter503)
              // A running session gate hands its keys on; only a first one loads them.
              .sessionKeys(
                  before.sessions() != null
                      ? null
                      : SessionKeys.load(next, System::getenv, b.webAppResources))
              .frameworkRoutes(b.frameworkRoutes)
              .predecessor(before)
              .build();
      VirtualQueueFrontEnd virtualQueue = runtime.virtualQueue();
      if (changes.firstUnder("virtualQueue") != null) {
        virtualQueue =
            VirtualQueueFrontEnd.reloaded(
                virtualQueue,
                next.virtualQueue(),
                b.ticker,
                b.wallClock,
                task -> timers.schedule(task, 0L),
                b.webAppResources);
      }
      BandwidthShaper bandwidth = runtime.bandwidth();
      Scheduler.Cancellable bandwidthManager = runtime.current().bandwidthManager();
      if (changes.firstUnder("bandwidth") != null) {
        bandwidth = new BandwidthShaper(next.bandwidth(), b.ticker);
        if (bandwidth.settings().enabled()) {
          // Standalone only (in a cluster these keys cannot change): no aligned periods.
          manager =
              timers.scheduleAtFixedRate(
                  bandwidth::managerRound, bandwidth.settings().managerPeriodNanos());
        } else {
          bandwidth = null;
        }
        bandwidthManager = manager;
      }
      return runtime.swap(next, engine, virtualQueue, bandwidth, bandwidthManager);
    } catch (RuntimeException | Error e) {
      if (engine != null) {
        engine.shutdown();
      }
      if (manager != null) {
        manager.cancel();
      }
      throw e;
    }
  }
}
