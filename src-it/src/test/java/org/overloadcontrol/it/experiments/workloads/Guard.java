package org.overloadcontrol.it.experiments.workloads;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import jakarta.servlet.ServletContext;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.overloadcontrol.it.load.EngineGauge;
import org.overloadcontrol.it.peers.ConcurrencyLimitFilter;
import org.overloadcontrol.it.peers.Peers;
import org.overloadcontrol.it.serverlog.ReasonTellingRejectionHandler;
import org.overloadcontrol.it.support.ContainerHooks;
import org.overloadcontrol.it.support.ContainerKind;

/**
 * What guards a workload's endpoint in one run of the matrix, built inside the server's JVM:
 * our filter with only the endpoint's target (README's defaults), nothing, or a peer around
 * the same application. Each guard also says what its concurrency limit is at a moment, for the
 * limit-over-time log.
 */
abstract class Guard {

  /** {@code -Dexperiment.tunedParams}: the "tuned" guard's keys, {@code key=value,...}. */
  static final String TUNED_PARAMS = "experiment.tunedParams";

  /** The names {@code -Dexperiment.variants} takes, in the report's order. */
  static final List<String> NAMES =
      List.of("default", "tuned", "none", "qos", "ncl-vegas", "ncl-gradient2");

  private final String name;

  private Guard(String name) {
    this.name = name;
  }

  String name() {
    return name;
  }

  /** Our filter's init-params, or null when the application has no filter of ours. */
  abstract Map<String, String> filterParams(Workload workload);

  /** The container hooks that install the guard, added to {@code hooks}. */
  abstract ContainerHooks install(ContainerHooks hooks, Workload workload);

  /** The guard's concurrency limit now; NaN when it has none. */
  abstract double limit(ServletContext context);

  /** A one-line description for the report. */
  static String describe(String name, Workload w) {
    return switch (name) {
      case "default" ->
          "our filter, only `endpoints.work.target` = "
              + w.target().toMillis()
              + "ms (README); its refusals answered as by default, their reason told to the"
              + " server log";
      case "tuned" -> "our filter, the target and " + System.getProperty(TUNED_PARAMS, "nothing");
      case "none" -> "no guard";
      case "qos" ->
          "Jetty QoSHandler, maxRequestCount "
              + w.peerConcurrency()
              + ", maxSuspend "
              + w.target().toMillis()
              + " ms";
      case "ncl-vegas" -> "Netflix concurrency-limits, VegasLimit defaults (429)";
      case "ncl-gradient2" -> "Netflix concurrency-limits, Gradient2Limit defaults (429)";
      default -> throw unknown(name);
    };
  }

  static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException(
        "experiment.variants: unknown '" + name + "'; known: " + String.join(", ", NAMES));
  }

  /** The guard named {@code name}. */
  static Guard named(String name) {
    return switch (name) {
      case "default" -> new OurFilter(name, "");
      case "tuned" -> new OurFilter(name, System.getProperty(TUNED_PARAMS, ""));
      case "none" -> new Fixed(name, Double.NaN);
      case "qos" -> new Qos();
      case "ncl-vegas" -> new Netflix(name, VegasLimit.newDefault());
      case "ncl-gradient2" -> new Netflix(name, Gradient2Limit.newDefault());
      default -> throw unknown(name);
    };
  }

  /** Our filter with README's defaults, the target, and any {@code extra} keys. */
  private static final class OurFilter extends Guard {
    private final String extra;

    /**
     * @param extra {@code key=value,...} over README's defaults: to try a setting beside them in
     *     the same run
     */
    OurFilter(String name, String extra) {
      super(name);
      this.extra = extra;
    }

    @Override
    Map<String, String> filterParams(Workload w) {
      Map<String, String> params = new LinkedHashMap<>();
      params.put("endpoints." + Workload.PATH + ".target", w.target().toMillis() + "ms");
      // The default answer, which also tells the server log why it refused.
      params.put("rejectionHandler", ReasonTellingRejectionHandler.class.getName());
      for (String pair : extra.split(",")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          params.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
      }
      return params;
    }

    @Override
    ContainerHooks install(ContainerHooks hooks, Workload w) {
      return hooks;
    }

    @Override
    double limit(ServletContext context) {
      // The engine comes from the web application's loader: read by the public method names.
      try {
        Object engine = EngineGauge.engineIn(context);
        if (engine == null) {
          return Double.NaN;
        }
        List<?> groups = (List<?>) call(engine, "concurrencyGroups");
        return groups.isEmpty()
            ? Double.NaN
            : ((Number) call(groups.get(0), "limit")).doubleValue();
      } catch (ReflectiveOperationException | RuntimeException e) {
        return Double.NaN;
      }
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
      Method m = target.getClass().getMethod(method);
      return m.invoke(target);
    }
  }

  /** No guard, or one whose limit never moves. */
  private static final class Fixed extends Guard {
    private final double limit;

    Fixed(String name, double limit) {
      super(name);
      this.limit = limit;
    }

    @Override
    Map<String, String> filterParams(Workload w) {
      return null;
    }

    @Override
    ContainerHooks install(ContainerHooks hooks, Workload w) {
      return hooks;
    }

    @Override
    double limit(ServletContext context) {
      return limit;
    }
  }

  private static final class Qos extends Guard {
    private int max;

    Qos() {
      super("qos");
    }

    @Override
    Map<String, String> filterParams(Workload w) {
      return null;
    }

    @Override
    ContainerHooks install(ContainerHooks hooks, Workload w) {
      max = w.peerConcurrency();
      // The handler waits forever by default; a request that waited its target cannot meet it.
      return Peers.qosHandler(hooks, max, w.target());
    }

    @Override
    double limit(ServletContext context) {
      return max;
    }
  }

  private static final class Netflix extends Guard {
    private final Limit limit;

    Netflix(String name, Limit limit) {
      super(name);
      this.limit = limit;
    }

    @Override
    Map<String, String> filterParams(Workload w) {
      return null;
    }

    @Override
    ContainerHooks install(ContainerHooks hooks, Workload w) {
      return Peers.concurrencyLimit(hooks, limit, ConcurrencyLimitFilter.TOO_MANY_REQUESTS);
    }

    @Override
    double limit(ServletContext context) {
      return limit.getLimit();
    }
  }

  /** Whether the guard {@code name} can run in {@code container} (Jetty's handler needs Jetty). */
  static boolean runsIn(String name, ContainerKind container) {
    return !name.equals("qos") || container == ContainerKind.JETTY;
  }
}
