package org.overloadcontrol.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.Test;
import org.overloadcontrol.config.OptionalLibrary;

/**
 * The filter as a WAR with only the filter runs it: SnakeYAML and Commons Math are not on the
 * class path (this class runs in its own surefire execution that leaves them out, see the pom).
 * Init-params configure it; a YAML file or {@code virtualQueue.capacity: auto} stops the start
 * with the coordinates to add.
 */
class WithoutOptionalLibrariesTest {

  private final FilterHarness harness = new FilterHarness();

  @Test
  void theLibrariesAreReallyAbsent() {
    assertThat(OptionalLibrary.SNAKEYAML.present()).isFalse();
    assertThat(OptionalLibrary.COMMONS_MATH.present()).isFalse();
  }

  @Test
  void initParamsAloneConfigureTheFilter() throws Exception {
    harness.initParams.put("endpoints.s.target", "1s");
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/elsewhere");
    harness.initParams.put("virtualQueue.capacity", "10");
    OverloadFilter filter = harness.start();
    FilterChain chain = mock(FilterChain.class);
    filter.doFilter(new FilterHarness.Req().build(), new FilterHarness.Res().mock, chain);
    verify(chain).doFilter(any(), any());
    filter.destroy();
  }

  @Test
  void aYamlFileSaysToAddSnakeYaml() {
    harness.yaml = "endpoints:\n  s:\n    target: 1s\n";
    assertThatThrownBy(harness::start).hasMessageContaining("/WEB-INF/overload.yaml")
        .hasMessageContaining("needs org.yaml:snakeyaml on the class path");
  }

  @Test
  void capacityAutoSaysToAddCommonsMath() {
    harness.initParams.put("virtualQueue.enabled", "true");
    harness.initParams.put("virtualQueue.paths", "/s");
    assertThatThrownBy(harness::start).hasMessageContaining("virtualQueue.capacity")
        .hasMessageContaining("needs org.apache.commons:commons-math3 on the class path");
  }
}
