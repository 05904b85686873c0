package org.overloadcontrol.servlet;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The filter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /** Internal core types the filter still reaches; each leaves for the pipeline in time. */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.internal.bandwidth.GroupSnapshot",
          "org.overloadcontrol.base.Outcome",
          "org.overloadcontrol.internal.classify.ClientAddressResolver",
          "org.overloadcontrol.config.ConfigSource",
          "org.overloadcontrol.config.FrameworkRoutes",
          "org.overloadcontrol.config.OverloadConfig",
          "org.overloadcontrol.internal.engine.Answer",
          "org.overloadcontrol.internal.engine.EndpointClass",
          "org.overloadcontrol.internal.engine.OverloadEngine",
          "org.overloadcontrol.internal.engine.RequestTag",
          "org.overloadcontrol.metrics.Observability",
          "org.overloadcontrol.queue.QueueSettings",
          "org.overloadcontrol.queue.WaitQueues",
          "org.overloadcontrol.internal.virtualqueue.UrlEncodedForm");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.servlet", STILL_REACHED);
  }
}
