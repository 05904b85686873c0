package org.overloadcontrol.benchmarks;

import java.util.HashMap;
import java.util.Map;
import org.overloadcontrol.base.Scheduler;
import org.overloadcontrol.base.Ticker;
import org.overloadcontrol.internal.classify.RequestAttributes;
import org.overloadcontrol.internal.config.OverloadConfig;
import org.overloadcontrol.internal.engine.OverloadEngine;

/**
 * The engines the JMH benchmarks drive: the published defaults, with endpoints set up so that
 * each benchmark stays on one path (always admitted, always rejected, always queued).
 */
final class Engines {

  /** An endpoint with a p90 target whose token rate is so high that nothing is rejected. */
  static final String CONTROLLED = "controlled";

  /** An endpoint without a target: measured, never rejected. */
  static final String UNCONTROLLED = "uncontrolled";

  /** An endpoint whose bucket holds one token and refills once in 5000 s: all but one rejected. */
  static final String STARVED = "starved";

  /** A request no rule reads (none are configured, so route() never calls it). */
  static final RequestAttributes REQUEST = get("/");

  /**
   * A GET of {@code path} without headers or cookies from the loopback address: what the
   * benchmarks route, one record for every path so that no benchmark pays for a different shape.
   */
  static RequestAttributes get(String path) {
    return new Get(path);
  }

  private record Get(String path) implements RequestAttributes {
    @Override
    public String method() {
      return "GET";
    }

    @Override
    public String header(String name) {
      return null;
    }

    @Override
    public String cookie(String name) {
      return null;
    }

    @Override
    public String clientAddress() {
      return "127.0.0.1";
    }
  }

  /** Timers that never fire: the queue benchmarks measure the engine's bookkeeping only. */
  static final Scheduler NO_TIMERS =
      new Scheduler() {
        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
          return () -> {};
        }

        @Override
        public Cancellable scheduleAtFixedRate(Runnable task, long periodNanos) {
          return () -> {};
        }
      };

  private Engines() {}

  /** Admission control only (no queues): the three endpoints above. */
  static OverloadEngine admissionOnly(Map<String, String> extra) {
    Map<String, String> keys = new HashMap<>(admissionKeys());
    keys.putAll(extra);
    return OverloadEngine.builder(OverloadConfig.of(keys))
        .ticker(Ticker.system())
        .scheduler(NO_TIMERS)
        .build();
  }

  static Map<String, String> admissionKeys() {
    Map<String, String> keys = new HashMap<>();
    keys.put("endpoints." + CONTROLLED + ".target", "1s");
    keys.put("endpoints." + CONTROLLED + ".controller.rateMax", "1e9");
    keys.put("endpoints." + CONTROLLED + ".controller.initialRate", "1e9");
    keys.put("endpoints." + CONTROLLED + ".controller.bucketDepth", "1000");
    keys.put("endpoints." + STARVED + ".target", "1s");
    keys.put("endpoints." + STARVED + ".controller.rateMin", "0.0002");
    keys.put("endpoints." + STARVED + ".controller.initialRate", "0.0002");
    keys.put("endpoints." + STARVED + ".controller.rateMax", "0.0002");
    keys.put("endpoints." + STARVED + ".controller.bucketDepth", "1");
    return keys;
  }
}
