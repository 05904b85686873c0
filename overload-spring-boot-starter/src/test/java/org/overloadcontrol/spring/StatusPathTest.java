package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OverloadConfigException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Where the starter maps the status servlet, and how it refuses a path that is none. */
class StatusPathTest {

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return environment;
  }

  @Test
  void overloadByDefaultAndTheTrailingSlashIsDropped() {
    assertThat(OverloadAutoConfiguration.statusPath(environment(Map.of()))).isEqualTo("/overload");
    assertThat(
            OverloadAutoConfiguration.statusPath(
                environment(Map.of("overload.spring.status.path", "/actuator/overload-ui/"))))
        .isEqualTo("/actuator/overload-ui");
  }

  @Test
  void aPathThatIsNoneIsRefusedNamingTheKeyAndQuotingTheValue() {
    for (String bad : new String[] {"overload", "/", "/overload/*"}) {
      assertThatThrownBy(
              () ->
                  OverloadAutoConfiguration.statusPath(
                      environment(Map.of("overload.spring.status.path", bad))))
          .isInstanceOf(OverloadConfigException.class)
          .hasMessageContaining("'overload.spring.status.path' = '" + bad + "'")
          .hasMessageContaining("Spring properties");
    }
  }

  @Test
  void theDispatcherServletPrefixIsReadAsSpringBootReadsIt() {
    assertThat(OverloadAutoConfiguration.dispatcherServletPrefix(environment(Map.of()))).isEmpty();
    assertThat(
            OverloadAutoConfiguration.dispatcherServletPrefix(
                environment(Map.of("spring.mvc.servlet.path", "/api/"))))
        .isEqualTo("/api");
  }
}
