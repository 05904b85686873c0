package org.overloadcontrol.benchmarks;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.overloadcontrol.internal.config.FrameworkRoutes;

/**
 * What the match of a request's path against a framework's routes costs, and of what it is made
 * (issue 20: the Spring form's {@link FilterPath} stays within 10 % of the WAR form's): the
 * shop's 16 routes ({@link FrameworkRouting#shopRoutes()}), a template path ({@code
 * /product/42}, what {@link FilterPath} sends) and a literal one ({@code /checkout}), beside the
 * parts a match is made of, each alone: finding the segments' ends, comparing a segment with a
 * literal, the method check, a set look-up by servlet name. And the lever a hash map would be:
 * a literal path looked up by its hash against the walk, both on a path string made per call (a
 * container makes one per request, so its hash is not cached), beside the making alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class RouteMatch {

  private FrameworkRoutes routes;
  private final Map<String, String> literalRoutes = new HashMap<>();
  private final Set<String> noStatusServlets = Set.copyOf(Set.<String>of());

  // Fields, not constants, so that the JIT does not fold them.
  private String method = "GET";
  private String template = "/product/42";
  private String literal = "/checkout";
  private String servlet = "dispatcherServlet";
  private char[] literalChars = "/checkout".toCharArray();

  @Setup(Level.Trial)
  public void setUp() {
    routes = FrameworkRouting.shopRoutes().build();
    for (String path :
        new String[] {"/", "/search", "/cart", "/checkout", "/payment", "/account", "/login"}) {
      literalRoutes.put(path, routes.endpointOf("GET", path));
    }
  }

  /** The whole match of {@code GET /product/42}: what the Spring form adds to a request. */
  @Benchmark
  public int matchTemplate() {
    return routes.indexOf(method, template);
  }

  /** The whole match of {@code GET /checkout}. */
  @Benchmark
  public int matchLiteral() {
    return routes.indexOf(method, literal);
  }

  /** The ends of {@code /product/42}'s two segments, by {@code String.indexOf}. */
  @Benchmark
  public int segmentEndsByIndexOf() {
    String path = template;
    int first = path.indexOf('/', 1);
    return first + path.indexOf('/', first + 1);
  }

  /** The same ends by a loop over the characters. */
  @Benchmark
  public int segmentEndsByLoop() {
    String path = template;
    int ends = 0;
    for (int i = 1; i < path.length(); i++) {
      if (path.charAt(i) == '/') {
        ends += i;
      }
    }
    return ends;
  }

  /** {@code product} against the path's first segment. */
  @Benchmark
  public boolean literalCompare() {
    return template.startsWith("product", 1);
  }

  /** A route's method against the request's. */
  @Benchmark
  public boolean methodCheck() {
    return "GET".equals(method);
  }

  /** The filter's status-servlet check, with none registered (a Spring Boot application). */
  @Benchmark
  public boolean statusServletCheck() {
    return noStatusServlets.contains(servlet);
  }

  /** A literal path made per call, alone: the baseline of the two below. */
  @Benchmark
  public String freshPath() {
    return new String(literalChars);
  }

  /** A literal path made per call, looked up in a hash map of the literal routes. */
  @Benchmark
  public String freshPathByHash() {
    return literalRoutes.get(new String(literalChars));
  }

  /** A literal path made per call, walked through the routes. */
  @Benchmark
  public int freshPathByWalk() {
    return routes.indexOf(method, new String(literalChars));
  }
}
