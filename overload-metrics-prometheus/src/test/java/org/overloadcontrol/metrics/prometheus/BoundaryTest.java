package org.overloadcontrol.metrics.prometheus;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The Prometheus binding uses only the published metrics SPI ({@link PublishedApi}). */
class BoundaryTest {

  @Test
  void usesOnlyThePublishedApi() {
    PublishedApi.checkBinding("org.overloadcontrol.metrics.prometheus");
  }
}
