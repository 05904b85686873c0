package org.overloadcontrol.benchmarks;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.base.Outcome;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.config.FrameworkRoutes;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.Decision;
import org.overloadcontrol.internal.engine.EndpointClass;
import org.overloadcontrol.internal.engine.OverloadEngine;
import org.overloadcontrol.internal.engine.RequestTag;

/**
 * The engine's per-request work (route, tag, arrive, complete) when a framework's routes decide
 * the endpoint (the Spring and Jakarta REST modules), against routing by servlet name (the
 * servlet filter in a WAR of servlets): the price of matching each request's method and path
 * against the compiled templates of a shop-sized application (16 handler methods, the request's
 * one among the most specific).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class FrameworkRouting {

  private OverloadEngine byServlet;
  private OverloadEngine byRoutes;
  private FrameworkRoutes routes;

  /** GET /product/42, as a framework-routed request presents itself. */
  private static final RequestAttributes PRODUCT = Engines.get("/product/42");

  @Setup(Level.Trial)
  public void setUp() {
    routes = shopRoutes().build();
    byServlet = Engines.admissionOnly(java.util.Map.of());
    byRoutes =
        OverloadEngine.builder(OverloadConfig.of(Engines.admissionKeys()))
            .ticker(Ticker.system())
            .scheduler(Engines.NO_TIMERS)
            .frameworkRoutes(routes)
            .build();
  }

  /**
   * Sixteen shop-like handler methods; {@code GET /product/{id}} leads to
   * {@link Engines#CONTROLLED}.
   */
  static FrameworkRoutes.Builder shopRoutes() {
    return FrameworkRoutes.builder("benchmark")
        .route("GET", "/", "Shop#home")
        .route("GET", "/search", "Shop#search")
        .route("GET", "/category/{name}", "Shop#category")
        .route("GET", "/product/{id}", Engines.CONTROLLED)
        .route("GET", "/product/{id}/reviews", "Shop#reviews")
        .route("GET", "/cart", "Cart#view")
        .route("POST", "/cart", "Cart#add")
        .route("DELETE", "/cart/{item}", "Cart#remove")
        .route("GET", "/checkout", "Checkout#form")
        .route("POST", "/checkout", "Checkout#submit")
        .route("POST", "/payment", "Checkout#pay")
        .route("GET", "/account", "Account#view")
        .route("POST", "/login", "Account#login")
        .route("GET", "/orders", "Account#orders")
        .route("GET", "/orders/{id}", "Account#order")
        .route("GET", "/static/**", "Static#files");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    byServlet.shutdown();
    byRoutes.shutdown();
  }

  /** The servlet filter's path: the endpoint from the servlet's name, cached. */
  @Benchmark
  public boolean servletName() {
    return once(byServlet.routes().route(Engines.CONTROLLED, Engines.REQUEST), byServlet);
  }

  /** The framework modules' path: the endpoint from the routes, matched per request. */
  @Benchmark
  public boolean frameworkRoutes() {
    return once(byRoutes.routes().route("dispatcherServlet", PRODUCT), byRoutes);
  }

  /** The matching alone. */
  @Benchmark
  public String matchOnly() {
    return routes.endpointOf("GET", "/product/42");
  }

  private static boolean once(EndpointClass route, OverloadEngine engine) {
    long now = engine.ticker().read();
    RequestTag tag = engine.tag(route, now, now);
    Decision d = engine.arrive(tag);
    return engine.settle(tag, d == Decision.ADMIT ? Outcome.COMPLETED : Outcome.REJECTED, 0L);
  }
}
