package org.overloadcontrol.internal.engine;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import org.overloadcontrol.internal.base.ClassDefinition;
import org.overloadcontrol.internal.classify.BypassPaths;
import org.overloadcontrol.internal.classify.ClassRule;
import org.overloadcontrol.internal.classify.EndpointRule;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.internal.config.OverloadConfig;

/**
 * Where a request goes, before the engine tags it: whether it is a probe that passes
 * uncontrolled ({@code bypass.paths}), and else its endpoint (a configured path rule, a
 * framework's route, or the adapter's default) and its class (a class rule, or the endpoint's
 * class). One per engine, decided from its configuration and framework routes at start: {@link
 * OverloadEngine#routes()}.
 *
 * <p>Hot path: a map look-up for the endpoint and class, cached when no rule needs the request,
 * and resolved once per framework route when no class rule reads it.
 */
public final class Routes {

  private final OverloadConfig config;

  /** The endpoint named so, created on first use (the engine's). */
  private final Function<String, ControlledEndpoint> endpoints;

  private final ConcurrentHashMap<String, EndpointClass> routeCache = new ConcurrentHashMap<>();
  private final boolean routeNeedsRequest;

  /** Routes a framework module contributed; consulted after the configured path rules. */
  private final FrameworkRoutes frameworkRoutes;

  /** Probe paths no adapter puts under control ({@code bypass.paths}). */
  private final BypassPaths bypass;

  /**
   * What each framework route resolved to, when no class rule reads the request (else null).
   * Racing requests may both resolve a route; both get the same endpoint's same class.
   */
  private final AtomicReferenceArray<EndpointClass> resolvedFrameworkRoutes;

  /**
   * Per framework route, whether a path it takes could be a probe path ({@link #bypasses}):
   * requests of the other routes skip that check (decided once, at start).
   */
  private final boolean[] bypassableRoutes;

  /**
   * @param endpoints the endpoint of a name, created with its configured settings on first use
   */
  Routes(
      OverloadConfig config,
      FrameworkRoutes frameworkRoutes,
      Function<String, ControlledEndpoint> endpoints) {
    this.config = Objects.requireNonNull(config, "config");
    this.frameworkRoutes = Objects.requireNonNull(frameworkRoutes, "frameworkRoutes");
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.bypass = config.bypassPaths();
    this.resolvedFrameworkRoutes =
        config.classRules().isEmpty() && !frameworkRoutes.isEmpty()
            ? new AtomicReferenceArray<>(frameworkRoutes.size())
            : null;
    this.bypassableRoutes = new boolean[frameworkRoutes.size()];
    for (int i = 0; i < bypassableRoutes.length; i++) {
      bypassableRoutes[i] = frameworkRoutes.mayBypass(i, bypass);
    }
    this.routeNeedsRequest =
        !config.classRules().isEmpty()
            || !config.endpointRules().isEmpty()
            || !frameworkRoutes.isEmpty();
  }

  /**
   * Whether a request to {@code path} (within the application) is a probe that the adapter
   * must pass to the application untouched, before it tags the request: it never competes
   * for a permit, waits or is refused (see {@link BypassPaths}).
   */
  public boolean bypasses(String path) {
    return bypass.matches(path);
  }

  /**
   * Whether no classification or endpoint rule reads the request: then every request with the
   * same default endpoint goes to the same endpoint and class, and {@link #route} does not
   * read its attributes (they may be null).
   */
  public boolean routesByEndpointOnly() {
    return !routeNeedsRequest;
  }

  /**
   * Whether a framework's routes are all that reads a request (no endpoint or class rule): then
   * {@link #routeByFramework} routes it with one walk over its path, and a request no route
   * matches goes to its adapter's {@link #defaultRoute}.
   */
  public boolean routesByFrameworkOnly() {
    return resolvedFrameworkRoutes != null && config.endpointRules().isEmpty();
  }

  /**
   * The endpoint and class of a request when {@link #routesByFrameworkOnly()}: its framework
   * route's (resolved once per route), else {@code fallback}.
   *
   * @param fallback the adapter's own endpoint's route ({@link #defaultRoute}), or null for an
   *     adapter that looks it up only when no route matches
   */
  EndpointClass routeByFramework(String method, String path, EndpointClass fallback) {
    int route = frameworkRouteOf(method, path);
    return route < 0 ? fallback : frameworkRoute(route);
  }

  /**
   * The number of the framework route a request takes, or -1, when {@link
   * #routesByFrameworkOnly()}: {@link #frameworkRoute} and {@link #bypassable} answer for it.
   */
  public int frameworkRouteOf(String method, String path) {
    return frameworkRoutes.indexOf(method, path);
  }

  /** The endpoint and class of framework route {@code route} ({@link #frameworkRouteOf}). */
  public EndpointClass frameworkRoute(int route) {
    return resolvedRoute(route);
  }

  /**
   * Whether a request framework route {@code route} takes could be a probe ({@link #bypasses}):
   * when not, the walk over its path has settled that it is not, and the check is skipped.
   */
  public boolean bypassable(int route) {
    return bypassableRoutes[route];
  }

  /**
   * The endpoint and class of every request to endpoint {@code name} that no rule or route
   * sends elsewhere, for an adapter that resolves its own endpoints once: only when no class
   * rule reads the request ({@link #routesByEndpointOnly()} or {@link #routesByFrameworkOnly()}).
   */
  public EndpointClass defaultRoute(String name) {
    return routeTo(name, null);
  }

  /**
   * Routes a request. The endpoint is the first configured path rule that matches, else the
   * route a framework contributed ({@link OverloadEngine.Builder#frameworkRoutes}), else
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
    String name = null;
    for (EndpointRule rule : config.endpointRules()) {
      if (rule.matches(attributes.path())) {
        name = rule.endpoint();
        break;
      }
    }
    if (name == null && !frameworkRoutes.isEmpty()) {
      int route = frameworkRoutes.indexOf(attributes.method(), attributes.path());
      if (route >= 0) {
        if (resolvedFrameworkRoutes != null) {
          // No class rule reads the request: the route decides endpoint and class.
          return resolvedRoute(route);
        }
        name = frameworkRoutes.endpointAt(route);
      }
    }
    if (name == null) {
      name = defaultEndpoint;
    }
    return routeTo(name, attributes);
  }

  /** Framework route {@code route}'s endpoint and class, when no class rule reads requests. */
  private EndpointClass resolvedRoute(int route) {
    EndpointClass known = resolvedFrameworkRoutes.get(route);
    if (known == null) {
      known = routeTo(frameworkRoutes.endpointAt(route), null);
      resolvedFrameworkRoutes.set(route, known);
    }
    return known;
  }

  /** The endpoint and class of a request to endpoint {@code name}. */
  private EndpointClass routeTo(String name, RequestAttributes attributes) {
    ClassDefinition requestClass = null;
    for (ClassRule rule : config.classRules()) {
      if (rule.matches(attributes)) {
        requestClass = rule.requestClass();
        break;
      }
    }
    if (requestClass == null) {
      requestClass = config.endpointClass(name).orElse(config.defaultClass());
    }
    return endpoints.apply(name).forClass(requestClass);
  }
}
