package org.overloadcontrol.servlet;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * Where the filter sends each servlet's requests: the endpoint a servlet belongs to (its
 * {@code @Endpoint} or its name), whether it is a status servlet (not controlled), and, when no
 * rule reads the request ({@link OverloadEngine#routesByEndpointOnly()}), its endpoint and class
 * resolved once. On that common path a request costs one look-up by servlet name instead of
 * three (endpoint name, status servlets, the engine's route cache); measured with the
 * end-to-end benchmark's profiling mode (docs/performance.md).
 */
final class ServletRoutes {

  /** The endpoint of requests that no servlet mapping names. */
  static final String UNMAPPED = "unmapped";

  /** The route of a status servlet (every other route is its {@link EndpointClass}). */
  private static final Object STATUS = new Object();

  private final OverloadEngine engine;
  private final Map<String, String> endpointByServlet;
  private final Set<String> statusServlets;

  /** Servlet name to its EndpointClass, or STATUS: no wrapper object to read per request. */
  private final Map<String, Object> routes = new ConcurrentHashMap<>();

  ServletRoutes(
      OverloadEngine engine, Map<String, String> endpointByServlet, Set<String> statusServlets) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.endpointByServlet = Map.copyOf(endpointByServlet);
    this.statusServlets = Set.copyOf(statusServlets);
  }

  /** Whether {@code servlet} (a servlet name, or null) serves the status pages. */
  boolean isStatus(String servlet) {
    return servlet != null && statusServlets.contains(servlet);
  }

  /** The endpoint of {@code servlet}'s requests: its {@code @Endpoint}, else its name. */
  String endpointOf(String servlet) {
    if (servlet == null || servlet.isEmpty()) {
      return UNMAPPED;
    }
    String named = endpointByServlet.get(servlet);
    return named == null ? servlet : named;
  }

  /**
   * The endpoint and class of every request to {@code servlet}, or null for a status servlet.
   * Only when {@link OverloadEngine#routesByEndpointOnly()} (or, for the requests no framework
   * route takes, {@link OverloadEngine#routesByFrameworkOnly()}): otherwise rules read each
   * request.
   */
  EndpointClass route(String servlet) {
    String key = servlet == null ? "" : servlet;
    Object route = routes.get(key);
    if (route == null) {
      // Bounded by the servlets the container maps.
      route =
          routes.computeIfAbsent(
              key, name -> isStatus(servlet) ? STATUS : engine.defaultRoute(endpointOf(servlet)));
    }
    return route instanceof EndpointClass resolved ? resolved : null;
  }
}
