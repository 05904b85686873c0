package org.overloadcontrol.servlet;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The filter reaches the core through the pipeline and the published API ({@link PublishedApi}). */
class BoundaryTest {

  /**
   * Internal core types the filter still reaches: only through its public members, {@code
   * engine()} (and {@code ENGINE_ATTRIBUTE}, the attribute holding it) and {@code
   * bandwidthSnapshot()}, which applications call.
   */
  private static final Set<String> STILL_REACHED =
      Set.of(
          "org.overloadcontrol.internal.bandwidth.GroupSnapshot",
          "org.overloadcontrol.internal.engine.OverloadEngine");

  @Test
  void reachesTheCoreThroughThePipeline() {
    PublishedApi.checkAdapter("org.overloadcontrol.servlet", STILL_REACHED);
  }
}
