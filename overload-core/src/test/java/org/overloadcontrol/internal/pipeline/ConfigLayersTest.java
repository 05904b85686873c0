package org.overloadcontrol.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.ConfigSource;

class ConfigLayersTest {

  private static ConfigSource layer(String name, String key, String value) {
    return ConfigSource.of(name, Map.of(key, value));
  }

  @Test
  void theLevelsDecideThePrecedenceNotTheOrderOfTheCalls() {
    Settings settings =
        ConfigLayers.builder()
            .file(layer("yaml", "admission.maxLimit", "30"))
            .keys(layer("keys", "admission.maxLimit", "20"))
            .annotations(layer("annotations", "admission.maxLimit", "10"))
            .containerThreads("threads", 200)
            .read();

    assertThat(settings.admission().groupOf("").maxLimit()).isEqualTo(30);
    assertThat(settings.config().origin("admission.maxLimit")).isEqualTo("yaml");
  }

  @Test
  void theContainersThreadsAreTheLowestLayer() {
    ConfigLayers layers =
        ConfigLayers.builder().keys(layer("keys", "enabled", "true")).containerThreads("pool", 40);

    assertThat(layers.boundByThreads()).isTrue();
    assertThat(layers.layers().get(0).values()).containsEntry("admission.maxLimit", "38");
    assertThat(layers.read().admission().groupOf("").maxLimit()).isEqualTo(38);
    layers.keys(layer("keys", "admission.maxLimit", "12"));
    assertThat(layers.read().admission().groupOf("").maxLimit()).isEqualTo(12);
  }

  @Test
  void anInitialLimitAboveTheThreadsKeepsTheKeysOwnDefault() {
    ConfigLayers layers =
        ConfigLayers.builder()
            .file(layer("yaml", "admission.initialLimit", "150"))
            .containerThreads("pool", 40);

    assertThat(layers.boundByThreads()).isFalse();
    assertThat(layers.layers()).hasSize(1);
  }

  @Test
  void unknownThreadsAddNoLayer() {
    assertThat(ConfigLayers.builder().containerThreads("pool", 0).boundByThreads()).isFalse();
  }

  @Test
  void onlyTheLayersAboveTheAnnotationsDecideAnAnnotationsConflict() {
    ConfigLayers layers =
        ConfigLayers.builder()
            .annotations(layer("annotations", "endpoints.a.target", "1s"))
            .file(layer("yaml", "endpoints.b.target", "2s"));

    assertThat(layers.setAboveAnnotations("endpoints.b.target")).isTrue();
    assertThat(layers.setAboveAnnotations("endpoints.a.target")).isFalse();
  }

  @Test
  void anUnknownEndpointIsRefusedNamingItsKeyAndLayer() {
    ConfigLayers layers =
        ConfigLayers.builder()
            .keys(layer("init-param", "endpoints.slwo.target", "1s"))
            .knownEndpoints(List.of("slow"));

    assertThatThrownBy(layers::read)
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("endpoints.slwo.target")
        .hasMessageContaining("init-param")
        .hasMessageContaining("did you mean 'slow'?");
  }

  @Test
  void aRejectionHandlerIsRefusedWhereTheAdapterHasNoServlets() {
    ConfigLayers layers =
        ConfigLayers.builder()
            .keys(layer("keys", "rejectionHandler", "com.example.Refusals"))
            .noRejectionHandler("answer refusals another way");

    assertThatThrownBy(layers::read)
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("rejectionHandler")
        .hasMessageContaining("answer refusals another way");
  }
}
