package org.overloadcontrol.servlet;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The filter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /**
   * Internal core types the filter still reaches: none. Its public members hand out published
   * types only ({@code endpointSnapshots()}, {@code queuePermits()}, {@code quality(endpoint)}),
   * and the servlet context holds the pipeline's runtime, not the engine.
   */
  private static final Set<String> STILL_REACHED = Set.of();

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.servlet", STILL_REACHED);
  }
}
