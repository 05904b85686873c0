package org.overloadcontrol.spring;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The starter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /**
   * Internal core types the starter still reaches: none. It hands the filter its routes and its
   * properties layer as pipeline types, reads the endpoints' states for the health contributor
   * and the status JSON through the pipeline's observability handle, and describes the keys for
   * the IDE metadata through the pipeline's key reference.
   */
  private static final Set<String> STILL_REACHED = Set.of();

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.spring", STILL_REACHED);
  }
}
