package org.overloadcontrol.internal.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.overloadcontrol.internal.classify.BypassPaths;

/**
 * The one extension point through which a web framework (Jakarta REST, Spring MVC) tells the
 * engine where its requests go, so that one servlet that dispatches to many handler methods is
 * many endpoints, each with its own target, class and controller. The framework module reads its
 * own resource model once, at start (resource methods with their path templates and HTTP
 * methods, and the annotations on them), and hands over:
 *
 * <ul>
 *   <li>routes: (HTTP method, path template) to an endpoint name, compiled here into patterns;
 *   <li>{@link #annotations()}: the keys its annotations set, the lowest configuration layer
 *       beside the servlets' annotations;
 *   <li>{@link #properties()}: keys the framework read from its own configuration (Spring
 *       Boot's {@code overload.*} properties), a layer above the filter's init-params.
 * </ul>
 *
 * <p>The adapter (the servlet filter) still does all the admitting, queueing and measuring: the
 * engine consults {@link #endpointOf} when it routes a request, after the configured
 * {@code endpoints.<e>.paths} rules (configuration wins) and before the servlet's own endpoint.
 * No framework code runs per request: matching is one walk of the path through the routes'
 * segments ({@link RouteTree}), the most specific template winning (most literal characters,
 * then fewest variables, as Jakarta REST 3.1 §3.7.2 orders them). A servlet filter finds the
 * routes in the servlet-context attribute {@link #ATTRIBUTE}, which must be set before the
 * filter starts.
 */
public final class FrameworkRoutes {

  /** The servlet-context attribute in which a framework module leaves its routes. */
  public static final String ATTRIBUTE = FrameworkRoutes.class.getName();

  /** No routes and no layers. */
  public static final FrameworkRoutes NONE = builder("none").build();

  private final String framework;
  private final Route[] routes;

  /** The routes as a tree of their segments: what a request's path is walked through. */
  private final RouteTree tree;

  private final ConfigSource annotations;
  private final ConfigSource properties;
  private final Set<String> endpoints;

  private FrameworkRoutes(Builder b) {
    this.framework = b.framework;
    List<Route> sorted = new ArrayList<>(b.routes);
    sorted.sort(
        Comparator.comparingInt((Route r) -> -r.template.literalCount())
            .thenComparingInt(r -> r.template.variableCount())
            .thenComparing(r -> r.method == null));
    this.routes = sorted.toArray(Route[]::new);
    this.tree =
        new RouteTree(
            sorted.stream().map(Route::method).toArray(String[]::new),
            sorted.stream().map(Route::template).toArray(PathTemplate[]::new));
    this.annotations = b.annotations;
    this.properties = b.properties;
    Set<String> names = new LinkedHashSet<>();
    for (Route r : sorted) {
      names.add(r.endpoint);
    }
    this.endpoints = Set.copyOf(names);
  }

  private FrameworkRoutes(FrameworkRoutes same, ConfigSource properties) {
    this.framework = same.framework;
    this.routes = same.routes;
    this.tree = same.tree;
    this.annotations = same.annotations;
    this.properties = properties;
    this.endpoints = same.endpoints;
  }

  /**
   * The same routes with the framework's configuration read again (a reload: the routes come
   * from code and do not change while it runs, its properties may).
   */
  public FrameworkRoutes withProperties(ConfigSource layer) {
    return new FrameworkRoutes(this, layer);
  }

  /** Routes contributed by {@code framework} (a name for log lines and errors). */
  public static Builder builder(String framework) {
    return new Builder(framework);
  }

  public String framework() {
    return framework;
  }

  public boolean isEmpty() {
    return routes.length == 0;
  }

  /** Every endpoint a route leads to: they exist for the configuration's key checks. */
  public Set<String> endpoints() {
    return endpoints;
  }

  /** The keys the framework's annotations set; empty when none. */
  public ConfigSource annotations() {
    return annotations;
  }

  /** Keys from the framework's own configuration files, or null when it has none. */
  public ConfigSource properties() {
    return properties;
  }

  /**
   * The endpoint of a request, or null when no route matches (the adapter's own endpoint
   * applies). {@code HEAD} matches a {@code GET} route, as both frameworks answer it.
   *
   * @param method the HTTP method, upper case
   * @param path the path within the application, starting with "/"
   */
  public String endpointOf(String method, String path) {
    int route = indexOf(method, path);
    return route < 0 ? null : routes[route].endpoint;
  }

  /** The number of routes; {@link #indexOf} answers below it. */
  public int size() {
    return routes.length;
  }

  /** The endpoint of route {@code index}, as {@link #indexOf} returned it. */
  public String endpointAt(int index) {
    return routes[index].endpoint;
  }

  /**
   * The index of the route a request takes, or -1: the engine keeps what it resolved per route,
   * so a request routed here costs the match and one array read.
   */
  public int indexOf(String method, String path) {
    return tree.find(method, path);
  }

  /**
   * Whether a request route {@code index} takes could be a probe that {@code bypass} lets
   * through: when not, its requests skip the bypass check, the walk over the path having
   * already shown that no probe path is among them.
   */
  public boolean mayBypass(int index, BypassPaths bypass) {
    return routes[index].template.mayBypass(bypass);
  }

  @Override
  public String toString() {
    return framework + " routes " + List.of(routes);
  }

  private record Route(String method, PathTemplate template, String endpoint) {

    @Override
    public String toString() {
      return (method == null ? "*" : method) + " " + template + " -> " + endpoint;
    }
  }

  /** Collects routes and layers; {@link #build()} compiles them. */
  public static final class Builder {
    private final String framework;
    private final List<Route> routes = new ArrayList<>();
    private ConfigSource annotations;
    private ConfigSource properties;

    private Builder(String framework) {
      this.framework = Objects.requireNonNull(framework, "framework");
      this.annotations = ConfigSource.of(framework + " annotations", java.util.Map.of());
    }

    /**
     * Sends requests matching {@code method} and {@code template} to {@code endpoint}.
     *
     * @param method an HTTP method, or null for any
     * @param template a path template within the application (see {@link PathTemplate})
     * @throws IllegalArgumentException naming the template when it cannot be compiled
     */
    public Builder route(String method, String template, String endpoint) {
      Objects.requireNonNull(endpoint, "endpoint");
      if (endpoint.isBlank()) {
        throw new IllegalArgumentException("route " + template + ": empty endpoint name");
      }
      routes.add(
          new Route(
              method == null ? null : method.toUpperCase(Locale.ROOT),
              PathTemplate.compile(template),
              endpoint));
      return this;
    }

    public Builder annotations(ConfigSource layer) {
      this.annotations = Objects.requireNonNull(layer, "layer");
      return this;
    }

    public Builder properties(ConfigSource layer) {
      this.properties = layer;
      return this;
    }

    public FrameworkRoutes build() {
      return new FrameworkRoutes(this);
    }
  }
}
