package org.overloadcontrol.jetty;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/**
 * The Jetty handler reaches the core through the pipeline and the published API ({@link
 * PublishedApi}).
 */
class BoundaryTest {

  /** Internal core types the handler still reaches; each leaves for the pipeline in time. */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.internal.bandwidth.BandwidthShaper",
          "org.overloadcontrol.internal.bandwidth.GroupSnapshot",
          "org.overloadcontrol.internal.engine.OverloadEngine",
          "org.overloadcontrol.internal.virtualqueue.VirtualQueueFrontEnd");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.jetty", STILL_REACHED);
  }
}
