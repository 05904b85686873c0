package org.overloadcontrol.cluster.hazelcast;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.PublishedApi;

/** The Hazelcast coordinator uses only the published cluster SPI ({@link PublishedApi}). */
class BoundaryTest {

  @Test
  void usesOnlyThePublishedApi() {
    PublishedApi.checkBinding("org.overloadcontrol.cluster.hazelcast");
  }
}
