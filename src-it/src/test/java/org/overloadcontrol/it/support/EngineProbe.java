package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.overloadcontrol.it.load.EngineGauge;

/**
 * Reads the counters of the {@code OverloadEngine} of the filter of a deployed application,
 * through the runtime the filter publishes in its servlet context ({@link
 * EngineGauge#engineIn}). The engine of a WAR comes from
 * the WAR's own {@code WEB-INF/lib}, through the web-app class loader, so it is not an instance
 * of the test's {@code OverloadEngine} class: the probe reads it by reflection, by the public
 * method names of the engine API.
 */
public final class EngineProbe {

  /**
   * One request class at one endpoint, as the filter classified it.
   *
   * @param targetNanos the p90 target, 0 when not controlled
   * @param estimateNanos the class's smoothed p90, −1 before its first round
   * @param ratePerSecond the controller's admission rate
   */
  public record RouteView(
      String endpoint,
      String requestClass,
      int rank,
      String kind,
      double utility,
      long targetNanos,
      long estimateNanos,
      double ratePerSecond,
      long arrivalCount,
      long completedCount,
      long rejectedCount) {}

  private EngineProbe() {}

  /** The routes (endpoint and class) the engine has seen requests for; empty when no engine is published. */
  public static List<RouteView> read(ServletContext context) {
    try {
      Object engine = EngineGauge.engineIn(context);
      if (engine == null) {
        return List.of();
      }
      ClassLoader loader = engine.getClass().getClassLoader();
      @SuppressWarnings({"unchecked", "rawtypes"})
      Class<? extends Enum> outcomeType =
          (Class<? extends Enum>)
              Class.forName("org.overloadcontrol.internal.base.Outcome", false, loader);
      Object completed = outcome(outcomeType, "COMPLETED");
      Object rejected = outcome(outcomeType, "REJECTED");
      List<RouteView> views = new ArrayList<>();
      for (Object endpoint : (List<?>) call(engine, "endpoints")) {
        String endpointName = (String) call(endpoint, "name");
        for (Object route : (List<?>) call(endpoint, "classes")) {
          Object rc = call(route, "requestClass");
          Object controller = call(route, "controller");
          Method outcomeCount = route.getClass().getMethod("outcomeCount", outcomeType);
          views.add(
              new RouteView(
                  endpointName,
                  (String) call(rc, "name"),
                  (Integer) call(rc, "rank"),
                  call(rc, "kind").toString(),
                  (Double) call(rc, "utility"),
                  (Long) call(controller, "targetNanos"),
                  (Long) call(call(route, "p90"), "estimateNanos"),
                  (Double) call(controller, "rate"),
                  (Long) call(route, "arrivalCount"),
                  (Long) outcomeCount.invoke(route, completed),
                  (Long) outcomeCount.invoke(route, rejected)));
        }
      }
      return views;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the published engine does not have the expected API", e);
    }
  }

  /** The route of {@code endpoint}, if it has seen exactly one class; else empty. */
  public static Optional<RouteView> route(ServletContext context, String endpoint) {
    List<RouteView> matching =
        read(context).stream().filter(v -> v.endpoint().equals(endpoint)).toList();
    return matching.size() == 1 ? Optional.of(matching.get(0)) : Optional.empty();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object outcome(Class<? extends Enum> type, String name) {
    return Enum.valueOf(type, name);
  }

  private static Object call(Object target, String method) throws ReflectiveOperationException {
    return target.getClass().getMethod(method).invoke(target);
  }
}
