package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.ConfigSource;
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

    ConfigSource layer = SpringProperties.layer(env);

    assertThat(layer.values()).containsOnlyKeys("endpoints.search.target",
        "endpoints.search.paths", "bypass.paths");
    assertThat(layer.values()).containsEntry("endpoints.search.target", "1s")
        .containsEntry("endpoints.search.paths", "/search,/api/search/*");
    assertThat(layer.values().get("bypass.paths")).contains("/actuator/health/*")
        .contains("/actuator/overload");
    assertThat(layer.origin("endpoints.search.target"))
        .isEqualTo("Spring property 'overload.endpoints.search.target' in commandLineArgs");
    assertThat(layer.origin("endpoints.search.paths"))
        .isEqualTo("Spring property 'overload.endpoints.search.paths' in application.yaml");
  }

  @Test
  void theActuatorsProbesFollowItsBasePathUnlessBypassPathsAreSet() {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("application.yaml",
        Map.of("management.endpoints.web.base-path", "/manage")));
    assertThat(SpringProperties.layer(env).values().get("bypass.paths"))
        .contains("/manage/health/*").contains("/manage/prometheus");
    env.getPropertySources().addFirst(new MapPropertySource("mine",
        Map.of("overload.bypass.paths", "none")));
    assertThat(SpringProperties.layer(env).values()).containsEntry("bypass.paths", "none");
  }
}
