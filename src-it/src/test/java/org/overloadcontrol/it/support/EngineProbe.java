package org.overloadcontrol.it.support;

import jakarta.servlet.ServletContext;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.overloadcontrol.servlet.OverloadFilter;

/**
 * Reads the counters of the {@code OverloadEngine} a deployed application publishes in its
 * servlet context ({@link OverloadFilter#ENGINE_ATTRIBUTE}). The engine of a WAR comes from
 * the WAR's own {@code WEB-INF/lib}, through the web-app class loader, so it is not an instance
 * of the test's {@code OverloadEngine} class: the probe reads it by reflection, by the public
 * method names of the engine API.
 */
public final class EngineProbe {

  /**
   * One request class at one endpoint, as the filter classified it.
   *
   * @param targetNanos the p90 target, 0 when not controlled
   * @param estimateNanos the controller's smoothed p90, −1 before its first round
   * @param ratePerSecond the controller's admission rate
   */
  public record StageView(
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

  /** The stages the engine has seen requests for; empty when no engine is published. */
  public static List<StageView> read(ServletContext context) {
    Object engine = context.getAttribute(OverloadFilter.ENGINE_ATTRIBUTE);
    if (engine == null) {
      return List.of();
    }
    try {
      ClassLoader loader = engine.getClass().getClassLoader();
      @SuppressWarnings({"unchecked", "rawtypes"})
      Class<? extends Enum> outcomeType =
          (Class<? extends Enum>) Class.forName("org.overloadcontrol.base.Outcome", false, loader);
      Object completed = outcome(outcomeType, "COMPLETED");
      Object rejected = outcome(outcomeType, "REJECTED");
      List<StageView> views = new ArrayList<>();
      for (Object endpoint : (List<?>) call(engine, "endpoints")) {
        String endpointName = (String) call(endpoint, "name");
        for (Object stage : (List<?>) call(endpoint, "classes")) {
          Object rc = call(stage, "requestClass");
          Object controller = call(stage, "controller");
          Method outcomeCount = stage.getClass().getMethod("outcomeCount", outcomeType);
          views.add(
              new StageView(
                  endpointName,
                  (String) call(rc, "name"),
                  (Integer) call(rc, "rank"),
                  call(rc, "kind").toString(),
                  (Double) call(rc, "utility"),
                  (Long) call(controller, "targetNanos"),
                  (Long) call(controller, "estimateNanos"),
                  (Double) call(controller, "rate"),
                  (Long) call(stage, "arrivalCount"),
                  (Long) outcomeCount.invoke(stage, completed),
                  (Long) outcomeCount.invoke(stage, rejected)));
        }
      }
      return views;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the published engine does not have the expected API", e);
    }
  }

  /** The stage of {@code endpoint}, if it has seen exactly one class; else empty. */
  public static Optional<StageView> stage(ServletContext context, String endpoint) {
    List<StageView> matching =
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
