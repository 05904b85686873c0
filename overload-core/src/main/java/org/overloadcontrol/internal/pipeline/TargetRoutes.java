package org.overloadcontrol.internal.pipeline;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.overloadcontrol.internal.engine.EndpointClass;

/**
 * Where an adapter whose container names each request's target (a servlet, by its name) sends
 * the target's requests: the endpoint a target belongs to (its {@code @Endpoint} or its name),
 * whether it is a status target (not controlled), and, when no rule reads the request, its
 * endpoint and class resolved once. On that common path a request costs one look-up by target
 * name instead of three (endpoint name, status targets, the engine's route cache); measured with
 * the end-to-end benchmark's profiling mode (docs/performance.md).
 *
 * <p>Built over one {@link RequestPipeline}: a reload builds it again over the new one.
 */
public final class TargetRoutes {

  /** The endpoint of requests that no target names (no servlet mapping). */
  static final String UNMAPPED = "unmapped";

  /** The route of a status target (every other route is its {@link EndpointClass}). */
  private static final Object STATUS = new Object();

  private final RequestPipeline pipeline;
  private final Map<String, String> endpointByTarget;
  private final Set<String> statusTargets;
  private final boolean routesByTarget;
  private final boolean routesByFramework;

  /** Target name to its EndpointClass, or STATUS: no wrapper object to read per request. */
  private final Map<String, Object> routes = new ConcurrentHashMap<>();

  /**
   * @param endpointByTarget the endpoint of each target that names one ({@code @Endpoint})
   * @param statusTargets the targets that serve the status pages
   */
  public TargetRoutes(
      RequestPipeline pipeline, Map<String, String> endpointByTarget, Set<String> statusTargets) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.endpointByTarget = Map.copyOf(endpointByTarget);
    this.statusTargets = Set.copyOf(statusTargets);
    this.routesByTarget = pipeline.engine().routes().routesByEndpointOnly();
    this.routesByFramework = pipeline.engine().routes().routesByFrameworkOnly();
  }

  /**
   * Starts a request to {@code target} (a name, or null when none): null for a status target's,
   * which is not controlled.
   */
  public Exchange start(RequestView view, String target) {
    if (routesByTarget) {
      // No rule reads the request: its target says where it goes (one look-up).
      EndpointClass route = route(target);
      return route == null ? null : pipeline.start(view, route);
    }
    if (isStatus(target)) {
      return null;
    }
    if (routesByFramework) {
      // Only a framework's routes read the request (Spring Boot, Jakarta REST): one walk over
      // its path, else its target's endpoint (looked up only then).
      Exchange exchange = pipeline.startByFramework(view);
      return exchange != null ? exchange : pipeline.start(view, route(target));
    }
    return pipeline.start(view, endpointOf(target));
  }

  /** Whether {@code target} (a name, or null) serves the status pages. */
  boolean isStatus(String target) {
    return target != null && statusTargets.contains(target);
  }

  /** The endpoint of {@code target}'s requests: its {@code @Endpoint}, else its name. */
  String endpointOf(String target) {
    if (target == null || target.isEmpty()) {
      return UNMAPPED;
    }
    String named = endpointByTarget.get(target);
    return named == null ? target : named;
  }

  /**
   * The endpoint and class of every request to {@code target}, or null for a status target.
   * Only when no rule reads the request (or, for the requests no framework route takes, only a
   * framework's routes do): otherwise rules read each request.
   */
  EndpointClass route(String target) {
    String key = target == null ? "" : target;
    Object route = routes.get(key);
    if (route == null) {
      // Bounded by the targets the container maps.
      route =
          routes.computeIfAbsent(
              key,
              name ->
                  isStatus(target)
                      ? STATUS
                      : pipeline.engine().routes().defaultRoute(endpointOf(target)));
    }
    return route instanceof EndpointClass resolved ? resolved : null;
  }
}
