package org.overloadcontrol.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * The newcomer's application on Spring Boot 4, this module's Spring Boot: the starter, built
 * against Spring Boot 3.5, starts there, sheds and reports as on 3.5 ({@link NewcomerOverHttp}).
 */
class NewcomerBoot4IT extends NewcomerOverHttp {

  @Test
  void runsOnSpringBoot4() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }
}
