package org.overloadcontrol.rest;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/**
 * The Jakarta REST feature and its CDI beans reach the core through the pipeline and the published
 * API ({@link PublishedApi}).
 */
class BoundaryTest {

  /** Internal core types the feature still reaches. */
  private static final Set<String> REST_STILL_REACHED = Set.of();

  /** Internal core types the CDI beans still reach. */
  private static final Set<String> CDI_STILL_REACHED = Set.of();

  @Test
  void theFeatureReachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.rest", REST_STILL_REACHED);
  }

  @Test
  void theBeansReachTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.cdi", CDI_STILL_REACHED);
  }
}
