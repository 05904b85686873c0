package org.overloadcontrol.it.load;

import jakarta.servlet.ServletContext;
import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads the state of the overload engine a deployed application publishes in its servlet
 * context, for the time series: the summed admission rate of the controlled endpoints, the number
 * of requests waiting in the filter's queues and whether the browsing queues are LIFO. The
 * engine of a WAR comes from the WAR's own class loader, so it is read by reflection, by the
 * public method names of the engine API (as the integration tests' {@code EngineProbe}).
 */
public final class EngineGauge implements Supplier<EngineGauge.Reading> {

  /**
   * The attribute under which the filter publishes its runtime (the runtime's class name), whose
   * {@code engine()} is the engine in force.
   */
  public static final String RUNTIME_ATTRIBUTE =
      "org.overloadcontrol.internal.pipeline.OverloadRuntime";

  /**
   * One reading; NaN where the server has no such thing (no filter, no controlled endpoint, no
   * queues).
   */
  public record Reading(double admissionRate, double queueLength, boolean lifo, double quality) {
    static final Reading NONE = new Reading(Double.NaN, Double.NaN, false, Double.NaN);
  }

  private final ServletContext context;
  private final String qualityEndpoint;

  public EngineGauge(ServletContext context) {
    this(context, null);
  }

  /** A gauge that also reads the degradation quality of {@code qualityEndpoint}. */
  public EngineGauge(ServletContext context, String qualityEndpoint) {
    this.context = context;
    this.qualityEndpoint = qualityEndpoint;
  }

  @Override
  public Reading get() {
    try {
      Object engine = engineIn(context);
      if (engine == null) {
        return Reading.NONE;
      }
      double rate = 0;
      boolean controlled = false;
      for (Object endpoint : (List<?>) call(engine, "endpoints")) {
        for (Object route : (List<?>) call(endpoint, "classes")) {
          Object controller = call(route, "controller");
          if ((Long) call(controller, "targetNanos") > 0) {
            rate += (Double) call(controller, "rate");
            controlled = true;
          }
        }
      }
      Object queues = call(engine, "queues");
      double waiting = queues == null ? Double.NaN : (Integer) call(queues, "waitingCount");
      boolean lifo = queues != null && (Boolean) call(queues, "lifo");
      double quality =
          qualityEndpoint == null
              ? Double.NaN
              : (Double)
                  engine
                      .getClass()
                      .getMethod("quality", String.class)
                      .invoke(engine, qualityEndpoint);
      return new Reading(controlled ? rate : Double.NaN, waiting, lifo, quality);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the published engine does not have the expected API", e);
    }
  }

  /**
   * The engine in force of the filter running in {@code context}, read by reflection through the
   * runtime it publishes; null when no filter runs there.
   */
  public static Object engineIn(ServletContext context) throws ReflectiveOperationException {
    Object runtime = context.getAttribute(RUNTIME_ATTRIBUTE);
    return runtime == null ? null : call(runtime, "engine");
  }

  private static Object call(Object target, String method) throws ReflectiveOperationException {
    Method m = target.getClass().getMethod(method);
    return m.invoke(target);
  }
}
