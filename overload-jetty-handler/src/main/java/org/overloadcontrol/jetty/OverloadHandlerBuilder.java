package org.overloadcontrol.jetty;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.base.RequestKind;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.BuilderKeys;
import org.overloadcontrol.internal.pipeline.OverloadRuntime;
import org.overloadcontrol.queue.QueueListener;

/**
 * Builds an {@link OverloadHandler} in Java ({@link OverloadHandler#builder()}). Typed methods
 * produce the same flat keys as {@link OverloadHandler#put}, so anything the YAML file can say,
 * the builder can say; {@link #build} validates the whole configuration at once and throws
 * naming the first bad key.
 */
public final class OverloadHandlerBuilder {

  /** What the typed methods write; never frozen, each handler built gets a copy. */
  private final HandlerSettings settings = new HandlerSettings(() -> false);

  private Handler handler;

  OverloadHandlerBuilder() {}

  /** One flat key, e.g. {@code put("endpoints.search.target", "500ms")}. */
  public OverloadHandlerBuilder put(String key, String value) {
    settings.put(key, value);
    return this;
  }

  /** Every entry of {@code keys}, as by {@link OverloadHandler#put}. */
  public OverloadHandlerBuilder putAll(Map<String, String> keys) {
    keys.forEach(this::put);
    return this;
  }

  /** {@code endpoints.<endpoint>.target}: the p90 response-time target of an endpoint. */
  public OverloadHandlerBuilder target(String endpoint, Duration p90Target) {
    return putAll(BuilderKeys.target(endpoint, p90Target));
  }

  /** {@code endpoints.<endpoint>.paths}: path patterns routed to an endpoint. */
  public OverloadHandlerBuilder paths(String endpoint, String... patterns) {
    return putAll(BuilderKeys.paths(endpoint, patterns));
  }

  /** {@code classes.<name>.rank/kind/utility}: defines a request class. */
  public OverloadHandlerBuilder requestClass(
      String name, int rank, RequestKind kind, double utility) {
    return putAll(BuilderKeys.requestClass(name, rank, kind, utility));
  }

  /**
   * {@code classes.<name>.match.<condition>}: a classification rule; condition is
   * {@code path}, {@code method}, {@code header}, {@code cookie} or {@code client}.
   */
  public OverloadHandlerBuilder match(String className, String condition, String value) {
    return putAll(BuilderKeys.match(className, condition, value));
  }

  /** {@code queue.permits}: requests executing at once; more wait in the LIFO-Pri queues. */
  public OverloadHandlerBuilder permits(int permits) {
    return putAll(BuilderKeys.permits(permits));
  }

  /** {@code trustedProxies}: proxies whose forwarded headers are believed. */
  public OverloadHandlerBuilder trustedProxies(String... addressesOrCidrs) {
    return putAll(BuilderKeys.trustedProxies(addressesOrCidrs));
  }

  /** The YAML file, whose keys override those given here. */
  public OverloadHandlerBuilder configFile(Path file) {
    settings.configFile(file.toString());
    return this;
  }

  /** The directory a relative config file is resolved against. */
  public OverloadHandlerBuilder baseDirectory(Path directory) {
    settings.baseDirectory(directory.toString());
    return this;
  }

  /** The endpoint of requests that no path rule routes (default {@code "default"}). */
  public OverloadHandlerBuilder defaultEndpoint(String name) {
    settings.defaultEndpoint(name);
    return this;
  }

  /** Time for the engine (tests pass a fake); null keeps the system ticker. */
  public OverloadHandlerBuilder ticker(Ticker value) {
    if (value != null) {
      settings.ticker(value);
    }
    return this;
  }

  /** The wall clock {@code X-Request-Start} values are compared with; null keeps UTC. */
  public OverloadHandlerBuilder wallClock(Clock value) {
    if (value != null) {
      settings.wallClock(value);
    }
    return this;
  }

  /** Timers the caller owns; null (the default): the handler owns one timer thread. */
  public OverloadHandlerBuilder scheduler(Scheduler value) {
    settings.scheduler(value);
    return this;
  }

  /** Told of every admission controller round; null: nobody is told. */
  public OverloadHandlerBuilder admissionListener(AdmissionListener value) {
    if (value != null) {
      settings.admissionListener(value);
    }
    return this;
  }

  /** Told of queue events; null keeps the default, which logs them. */
  public OverloadHandlerBuilder queueListener(QueueListener value) {
    if (value != null) {
      settings.queueListener(value);
    }
    return this;
  }

  /**
   * For the package's tests: what to change on the runtime's builder, such as the CPU clocks
   * the test reads from.
   */
  OverloadHandlerBuilder runtimeOptions(UnaryOperator<OverloadRuntime.Builder> options) {
    settings.runtimeOptions(options);
    return this;
  }

  /** The handler to protect. */
  public OverloadHandlerBuilder handler(Handler value) {
    this.handler = value;
    return this;
  }

  /**
   * The handler, its configuration validated.
   *
   * @throws OverloadConfigException naming the first bad key, its value and origin
   */
  public OverloadHandler build() {
    OverloadHandler h = new OverloadHandler(settings);
    h.checkConfig();
    if (handler != null) {
      h.setHandler(handler);
    }
    return h;
  }
}
