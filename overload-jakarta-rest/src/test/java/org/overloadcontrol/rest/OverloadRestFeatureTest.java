package org.overloadcontrol.rest;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;

/** The filter-only mode refuses what the servlet filter refuses, naming the key, at start. */
class OverloadRestFeatureTest {

  @Test
  void aMisspelledEndpointStopsTheStartNamingTheKeyAndTheResourceMethod() {
    assertThatThrownBy(
            () ->
                OverloadRestFeature.builder()
                    .resources(GateResource.class)
                    .put("endpoints.GateResource#ordr.target", "1s")
                    .start())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoints.GateResource#ordr.target")
        .hasMessageContaining("GateResource#order");
  }

  @Test
  void anUnknownKeyStopsTheStartNamingIt() {
    assertThatThrownBy(
            () ->
                OverloadRestFeature.builder()
                    .resources(GateResource.class)
                    .put("queue.maxWaiting", "1s")
                    .start())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("queue.maxWaiting");
  }
}
