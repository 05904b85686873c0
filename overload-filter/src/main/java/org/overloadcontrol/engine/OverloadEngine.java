package org.overloadcontrol.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.admission.AdmissionListener;
import org.overloadcontrol.admission.EndpointAdmissionController;
import org.overloadcontrol.classify.ClassRule;
import org.overloadcontrol.classify.EndpointRule;
import org.overloadcontrol.classify.RequestAttributes;
import org.overloadcontrol.config.OverloadConfig;

/**
 * The container-free core that every adapter drives: route a request to its endpoint and class,
 * tag it, decide its admission, and take its outcome.
 *
 * <pre>
 *   EndpointClass stage = engine.route(servletName, attributes);
 *   RequestTag tag = engine.tag(stage, arrivalNanos);
 *   switch (engine.arrive(tag)) { ADMIT -&gt; run it; REJECT -&gt; 503 + Retry-After }
 *   engine.complete(tag, outcome, bytes);          // exactly once, when the response is done
 * </pre>
 *
 * <p>Hot path: a map look-up for the endpoint and class (cached when no rule needs the request),
 * one compare-and-set on the class's token bucket, and on completion a wait-free histogram
 * record and an atomic increment. No lock is shared by requests; the controller round runs on
 * the request thread that makes it due (see {@link EndpointAdmissionController}).
 */
public final class OverloadEngine {

  private final OverloadConfig config;
  private final Ticker ticker;
  private final AdmissionListener listener;
  private final ConcurrentHashMap<String, Endpoint> endpoints = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, EndpointClass> routeCache = new ConcurrentHashMap<>();
  private final boolean routeNeedsRequest;

  public OverloadEngine(OverloadConfig config, Ticker ticker, AdmissionListener listener) {
    this.config = Objects.requireNonNull(config, "config");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.routeNeedsRequest = !config.classRules().isEmpty() || !config.endpointRules().isEmpty();
  }

  public OverloadConfig config() {
    return config;
  }

  public Ticker ticker() {
    return ticker;
  }

  /** The endpoint named {@code name}, created with its configured settings on first use. */
  public Endpoint endpoint(String name) {
    Endpoint existing = endpoints.get(name);
    if (existing != null) {
      return existing;
    }
    return endpoints.computeIfAbsent(name, n -> new Endpoint(n,
        new EndpointAdmissionController(n, c -> config.settingsFor(n, c), listener), ticker));
  }

  /** Every endpoint that has seen a request. */
  public List<Endpoint> endpoints() {
    return new ArrayList<>(endpoints.values());
  }

  /**
   * Routes a request. The endpoint is the first configured path rule that matches, else
   * {@code defaultEndpoint} (the servlet name, or the adapter's own default). The class is the
   * first class rule that matches (highest rank first), else the endpoint's configured or
   * annotated class, else the default class.
   *
   * @param attributes the request, read only when some rule needs it
   */
  public EndpointClass route(String defaultEndpoint, RequestAttributes attributes) {
    if (!routeNeedsRequest) {
      EndpointClass cached = routeCache.get(defaultEndpoint);
      if (cached != null) {
        return cached;
      }
      EndpointClass resolved = resolve(defaultEndpoint, attributes);
      routeCache.putIfAbsent(defaultEndpoint, resolved);
      return resolved;
    }
    return resolve(defaultEndpoint, attributes);
  }

  private EndpointClass resolve(String defaultEndpoint, RequestAttributes attributes) {
    String name = defaultEndpoint;
    for (EndpointRule rule : config.endpointRules()) {
      if (rule.matches(attributes.path())) {
        name = rule.endpoint();
        break;
      }
    }
    RequestClass requestClass = null;
    for (ClassRule rule : config.classRules()) {
      if (rule.matches(attributes)) {
        requestClass = rule.requestClass();
        break;
      }
    }
    if (requestClass == null) {
      requestClass = config.endpointClass(name).orElse(config.defaultClass());
    }
    return endpoint(name).forClass(requestClass);
  }

  /** Tags a request that arrived at {@code arrivalNanos} on this engine's ticker. */
  public RequestTag tag(EndpointClass stage, long arrivalNanos) {
    stage.countArrival();
    return new RequestTag(stage, arrivalNanos, ticker);
  }

  /** Decides what to do with a tagged request. */
  public Decision arrive(RequestTag tag) {
    long now = ticker.read();
    EndpointClass stage = tag.stage();
    EndpointAdmissionController admission = stage.endpoint().admission();
    if (admission.tryAdmit(stage.controller(), now)) {
      tag.decide(Decision.ADMIT, 0L);
      return Decision.ADMIT;
    }
    long wait = stage.controller().nanosUntilToken(now);
    tag.decide(Decision.REJECT,
        Math.max(config.retryAfterMinNanos(), Math.min(config.retryAfterMaxNanos(), wait)));
    return Decision.REJECT;
  }

  /**
   * Reports how a request ended. Only the first report for a tag counts; a request that ran
   * (completed or failed) gives its response time, completion minus arrival, to its class's
   * controller.
   *
   * @param bytes the response body's size, or −1 if unknown
   * @return true if this call settled the outcome, false if it had been reported already
   */
  public boolean complete(RequestTag tag, Outcome outcome, long bytes) {
    Objects.requireNonNull(outcome, "outcome");
    if (!tag.settle(outcome)) {
      return false;
    }
    EndpointClass stage = tag.stage();
    stage.countOutcome(outcome);
    if (outcome.executed()) {
      long now = ticker.read();
      stage.endpoint().admission().record(stage.controller(), now - tag.arrivalNanos(), now);
    }
    return true;
  }
}
