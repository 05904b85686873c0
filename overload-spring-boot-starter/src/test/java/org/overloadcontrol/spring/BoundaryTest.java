package org.overloadcontrol.spring;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The starter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /** Internal core types the starter still reaches; each leaves for the pipeline in time. */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.internal.config.Key",
          "org.overloadcontrol.internal.config.KeyTable");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.spring", STILL_REACHED);
  }
}
