package org.overloadcontrol.spring;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The starter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /** Internal core types the starter still reaches; each leaves for the pipeline in time. */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.annotation.HandlerRoutes",
          "org.overloadcontrol.internal.classify.BypassPaths",
          "org.overloadcontrol.config.ConfigSource",
          "org.overloadcontrol.config.FrameworkRoutes",
          "org.overloadcontrol.config.Key",
          "org.overloadcontrol.config.KeyTable",
          "org.overloadcontrol.internal.engine.ControlledEndpoint",
          "org.overloadcontrol.internal.engine.OverloadEngine",
          "org.overloadcontrol.metrics.EndpointState",
          "org.overloadcontrol.metrics.Observability",
          "org.overloadcontrol.metrics.OverloadWatch",
          "org.overloadcontrol.metrics.StateReading");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.spring", STILL_REACHED);
  }
}
