package org.overloadcontrol.metrics.micrometer;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The Micrometer binding uses only the published metrics SPI ({@link PublishedApi}). */
class BoundaryTest {

  @Test
  void usesOnlyThePublishedApi() {
    PublishedApi.checkBinding("org.overloadcontrol.metrics.micrometer");
  }
}
