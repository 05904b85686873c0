package org.overloadcontrol.jetty;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/**
 * The Jetty handler reaches the core through the pipeline and the published API ({@link
 * PublishedApi}).
 */
class BoundaryTest {

  /** Internal core types the handler still reaches: none. */
  private static final Set<String> STILL_REACHED = Set.of();

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.jetty", STILL_REACHED);
  }
}
