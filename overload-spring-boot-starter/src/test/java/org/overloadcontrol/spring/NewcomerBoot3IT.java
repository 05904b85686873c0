package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** The newcomer's application on Spring Boot 3.5, this module's Spring Boot. */
class NewcomerBoot3IT extends NewcomerOverHttp {

  @Test
  void runsOnSpringBoot3() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
  }
}
