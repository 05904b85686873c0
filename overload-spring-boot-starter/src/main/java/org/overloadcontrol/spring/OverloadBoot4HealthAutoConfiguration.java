package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The {@code overload} health contributor on Spring Boot 4, which moved the health API to its
 * own module and package ({@code org.springframework.boot.health.contributor});
 * {@link OverloadBoot3HealthAutoConfiguration} is its twin for Spring Boot 3. Only the
 * class-name condition keeps this class from being read on Spring Boot 3, so nothing else may
 * refer to it.
 */
@AutoConfiguration(after = OverloadAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(OverloadAutoConfiguration.class)
@ConditionalOnProperty(prefix = "overload.spring.health", name = "enabled", matchIfMissing = true)
public class OverloadBoot4HealthAutoConfiguration {

  @Bean
  HealthIndicator overloadHealthIndicator(
      ServletContext context, ConfigurableEnvironment environment) {
    OverloadHealth health = new OverloadHealth(context, environment);
    return () -> {
      OverloadHealth.Reading r = health.read();
      if (!r.known()) {
        return Health.unknown().build();
      }
      return (r.outOfService() ? Health.outOfService() : Health.up())
          .withDetail("states", r.states())
          .withDetail("endpoints", r.endpoints())
          .build();
    };
  }
}
