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
          "org.overloadcontrol.internal.base.Outcome",
          "org.overloadcontrol.internal.classify.ClientAddressResolver",
          "org.overloadcontrol.internal.config.ConfigSource",
          "org.overloadcontrol.internal.config.FrameworkRoutes",
          "org.overloadcontrol.internal.config.OverloadConfig",
          "org.overloadcontrol.internal.engine.Answer",
          "org.overloadcontrol.internal.engine.EndpointClass",
          "org.overloadcontrol.internal.engine.OverloadEngine",
          "org.overloadcontrol.internal.engine.RequestTag",
          "org.overloadcontrol.internal.metrics.Observability",
          "org.overloadcontrol.internal.queue.QueueSettings",
          "org.overloadcontrol.internal.queue.WaitQueues",
          "org.overloadcontrol.internal.virtualqueue.UrlEncodedForm");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.servlet", STILL_REACHED);
  }
}
