package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.ConfigLayers;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class SpringPropertiesTest {

  @Test
  void overloadPropertiesBecomeTheFiltersKeysWithListsJoinedAndTheStartersOwnLeftOut() {
    StandardEnvironment env = new StandardEnvironment();
    Map<String, Object> yaml = new LinkedHashMap<>();
    yaml.put("overload.endpoints.search.target", "800ms");
    yaml.put("overload.endpoints.search.paths[1]", "/api/search/*");
    yaml.put("overload.endpoints.search.paths[0]", "/search");
    yaml.put("overload.spring.health.enabled", "true");
    yaml.put("overload.configFile", "/ops/overload.yaml");
    yaml.put("server.port", "8080");
    Map<String, Object> commandLine = Map.of("overload.endpoints.search.target", "1s");
    env.getPropertySources().addLast(new MapPropertySource("application.yaml", yaml));
    env.getPropertySources().addFirst(new MapPropertySource("commandLineArgs", commandLine));

    KeyLayer layer = SpringProperties.layer(env);

    assertThat(layer.values())
        .containsOnlyKeys("endpoints.search.target", "endpoints.search.paths", "bypass.paths");
    assertThat(layer.values())
        .containsEntry("endpoints.search.target", "1s")
        .containsEntry("endpoints.search.paths", "/search,/api/search/*");
    assertThat(layer.values().get("bypass.paths"))
        .contains("/actuator/health/*")
        .contains("/actuator/overload");
    assertThat(layer.origin("endpoints.search.target"))
        .isEqualTo("Spring property 'overload.endpoints.search.target' in commandLineArgs");
    assertThat(layer.origin("endpoints.search.paths"))
        .isEqualTo("Spring property 'overload.endpoints.search.paths' in application.yaml");
  }

  @Test
  void theActuatorsProbesFollowItsBasePathUnlessBypassPathsAreSet() {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources()
        .addFirst(
            new MapPropertySource(
                "application.yaml", Map.of("management.endpoints.web.base-path", "/manage")));
    assertThat(SpringProperties.layer(env).values().get("bypass.paths"))
        .contains("/manage/health/*")
        .contains("/manage/prometheus");
    env.getPropertySources()
        .addFirst(new MapPropertySource("mine", Map.of("overload.bypass.paths", "none")));
    assertThat(SpringProperties.layer(env).values()).containsEntry("bypass.paths", "none");
  }

  @Test
  void relaxedNamesAreTheLibrarysKeysAndAnUnknownOneIsNamedAsWritten() {
    StandardEnvironment env = new StandardEnvironment();
    Map<String, Object> yaml = new LinkedHashMap<>();
    yaml.put("overload.queue.max-wait", "5s");
    yaml.put("overload.virtual-queue.enabled", "false");
    yaml.put("overload.request_start.max_age", "1m");
    yaml.put("overload.endpoints.order-api.target", "1s");
    yaml.put("overload.endpoints.order-api.paths[0]", "/api/orders");
    env.getPropertySources().addLast(new MapPropertySource("application.yaml", yaml));
    env.getPropertySources()
        .addFirst(new MapPropertySource("commandLineArgs", Map.of("overload.queue.maxWait", "2s")));

    KeyLayer layer = SpringProperties.layer(env);

    // The endpoint's own name keeps its dash; the command line's spelling has precedence.
    assertThat(layer.values())
        .containsEntry("queue.maxWait", "2s")
        .containsEntry("virtualQueue.enabled", "false")
        .containsEntry("requestStart.maxAge", "1m")
        .containsEntry("endpoints.order-api.target", "1s")
        .containsEntry("endpoints.order-api.paths", "/api/orders");
    assertThat(layer.origin("virtualQueue.enabled"))
        .isEqualTo("Spring property 'overload.virtual-queue.enabled' in application.yaml");
    assertThat(layer.origin("endpoints.order-api.paths"))
        .isEqualTo("Spring property 'overload.endpoints.order-api.paths' in application.yaml");

    env.getPropertySources()
        .addFirst(new MapPropertySource("typo", Map.of("overload.queue.max-waiting", "5s")));
    KeyLayer typo = SpringProperties.layer(env);
    assertThatThrownBy(() -> ConfigLayers.builder().keys(typo).read())
        .isInstanceOf(OverloadConfigException.class)
        .hasMessageContaining("overload.queue.max-waiting");
  }
}
