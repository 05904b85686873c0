package org.overloadcontrol.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

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
 * No framework code runs per request: matching is the compiled patterns alone, most specific
 * template first (most literal characters, then fewest variables, as Jakarta REST 3.1 §3.7.2
 * orders them). A servlet filter finds the routes in the servlet-context attribute
 * {@link #ATTRIBUTE}, which must be set before the filter starts.
 */
public final class FrameworkRoutes {

  /** The servlet-context attribute in which a framework module leaves its routes. */
  public static final String ATTRIBUTE = FrameworkRoutes.class.getName();

  /** No routes and no layers. */
  public static final FrameworkRoutes NONE = builder("none").build();

  private final String framework;
  private final Route[] routes;
  /**
   * The routes a request can take, by the hash of its path's first segment: an open-addressing
   * table ({@link #bucketHashes} holds each slot's hash, {@link #bucketRoutes} its candidates,
   * in match order: the routes whose first segment is that literal merged with those whose
   * first segment is a variable or a wildcard). A request then tries the one or two routes of
   * its first segment, not every route (the price of the whole look-up: docs/frameworks.md).
   */
  private final int[] bucketHashes;
  private final int[][] bucketRoutes;
  private final int bucketMask;
  /** The candidates of a first segment no route names literally. */
  private final int[] otherRoutes;
  private final ConfigSource annotations;
  private final ConfigSource properties;
  private final Set<String> endpoints;

  private FrameworkRoutes(Builder b) {
    this.framework = b.framework;
    List<Route> sorted = new ArrayList<>(b.routes);
    sorted.sort(Comparator.comparingInt((Route r) -> -r.template.literalCount())
        .thenComparingInt(r -> r.template.variableCount())
        .thenComparing(r -> r.method == null));
    this.routes = sorted.toArray(Route[]::new);
    java.util.Map<Integer, List<Integer>> byHash = new java.util.LinkedHashMap<>();
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < routes.length; i++) {
      int h = routes[i].template.firstLiteralHash();
      if (h == 0) {
        open.add(i);
      } else {
        byHash.computeIfAbsent(h, k -> new ArrayList<>()).add(i);
      }
    }
    int slots = Integer.highestOneBit(Math.max(1, byHash.size()) * 4 - 1) << 1;
    this.bucketMask = slots - 1;
    this.bucketHashes = new int[slots];
    this.bucketRoutes = new int[slots][];
    byHash.forEach((h, literal) -> {
      int slot = slot(h);
      while (bucketRoutes[slot] != null) {
        slot = (slot + 1) & bucketMask;
      }
      List<Integer> candidates = new ArrayList<>(literal);
      candidates.addAll(open);
      candidates.sort(null);
      bucketHashes[slot] = h;
      bucketRoutes[slot] = candidates.stream().mapToInt(Integer::intValue).toArray();
    });
    this.otherRoutes = open.stream().mapToInt(Integer::intValue).toArray();
    this.annotations = b.annotations;
    this.properties = b.properties;
    Set<String> names = new LinkedHashSet<>();
    for (Route r : sorted) {
      names.add(r.endpoint);
    }
    this.endpoints = Set.copyOf(names);
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
    if (path == null) {
      return -1;
    }
    for (int i : candidates(PathTemplate.firstSegmentHash(path))) {
      Route r = routes[i];
      if (r.accepts(method) && r.template.matches(path)) {
        return i;
      }
    }
    return -1;
  }

  /** The routes a path whose first segment has hash {@code first} can take, in match order. */
  private int[] candidates(int first) {
    if (first != 0) {
      for (int slot = slot(first); bucketRoutes[slot] != null; slot = (slot + 1) & bucketMask) {
        if (bucketHashes[slot] == first) {
          return bucketRoutes[slot];
        }
      }
    }
    return otherRoutes;
  }

  private int slot(int hash) {
    return (hash ^ (hash >>> 16)) & bucketMask;
  }

  @Override
  public String toString() {
    return framework + " routes " + List.of(routes);
  }

  private record Route(String method, PathTemplate template, String endpoint) {

    boolean accepts(String requestMethod) {
      return method == null || method.equals(requestMethod)
          || (method.equals("GET") && "HEAD".equals(requestMethod));
    }

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
      routes.add(new Route(method == null ? null : method.toUpperCase(Locale.ROOT),
          PathTemplate.compile(template), endpoint));
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
