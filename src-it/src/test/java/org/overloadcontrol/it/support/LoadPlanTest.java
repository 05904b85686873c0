package org.overloadcontrol.it.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadPlanTest {

  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  @Test
  void acceptsOnlyLoopbackTargets() {
    assertThat(LoadPlan.of(URI.create("http://127.0.0.1:8080/x"), 10, TEN_SECONDS).target())
        .hasHost("127.0.0.1");
    assertThat(LoadPlan.of(URI.create("http://localhost:8080/x"), 10, TEN_SECONDS)).isNotNull();
    for (String target :
        new String[] {
          "http://10.0.0.1/",
          "http://example.org/",
          "https://127.0.0.1/",
          "http://192.168.1.1:8080/"
        }) {
      assertThatThrownBy(() -> LoadPlan.of(URI.create(target), 10, TEN_SECONDS))
          .as(target)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(target);
    }
  }

  @Test
  void refusesAWarmupAsLongAsTheRun() {
    LoadPlan plan = LoadPlan.of(URI.create("http://127.0.0.1/"), 10, TEN_SECONDS);
    assertThatThrownBy(() -> plan.withWarmup(TEN_SECONDS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("warmup");
  }

  @Test
  void retryAfterIsSecondsOrAnHttpDate() {
    assertThat(OpenLoopDriver.validRetryAfter("3")).isTrue();
    assertThat(OpenLoopDriver.validRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).isTrue();
    assertThat(OpenLoopDriver.validRetryAfter(null)).isFalse();
    assertThat(OpenLoopDriver.validRetryAfter("")).isFalse();
    assertThat(OpenLoopDriver.validRetryAfter("-1")).isFalse();
    assertThat(OpenLoopDriver.validRetryAfter("soon")).isFalse();
  }
}
