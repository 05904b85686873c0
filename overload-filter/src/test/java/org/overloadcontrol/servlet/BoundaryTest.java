package org.overloadcontrol.servlet;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The filter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /** Internal core types the filter still reaches; each leaves for the pipeline in time. */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.bandwidth.GroupSnapshot",
          "org.overloadcontrol.base.Outcome",
          "org.overloadcontrol.classify.ClientAddressResolver",
          "org.overloadcontrol.config.ConfigSource",
          "org.overloadcontrol.config.FrameworkRoutes",
          "org.overloadcontrol.config.OverloadConfig",
          "org.overloadcontrol.engine.Answer",
          "org.overloadcontrol.engine.EndpointClass",
          "org.overloadcontrol.engine.OverloadEngine",
          "org.overloadcontrol.engine.RequestTag",
          "org.overloadcontrol.metrics.Observability",
          "org.overloadcontrol.queue.QueueSettings",
          "org.overloadcontrol.queue.WaitQueues",
          "org.overloadcontrol.virtualqueue.UrlEncodedForm");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.servlet", STILL_REACHED);
  }
}
