package org.overloadcontrol.metrics.dropwizard;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The Dropwizard binding uses only the published metrics SPI ({@link PublishedApi}). */
class BoundaryTest {

  @Test
  void usesOnlyThePublishedApi() {
    PublishedApi.checkBinding("org.overloadcontrol.metrics.dropwizard");
  }
}
