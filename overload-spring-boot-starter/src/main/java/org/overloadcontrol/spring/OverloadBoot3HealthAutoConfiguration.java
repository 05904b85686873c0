package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The {@code overload} health contributor on Spring Boot 3, whose health API is
 * {@code org.springframework.boot.actuate.health}; {@link OverloadBoot4HealthAutoConfiguration}
 * is its twin for Spring Boot 4. Only the class-name condition keeps this class from being read
 * on Spring Boot 4, so nothing else may refer to it.
 */
@AutoConfiguration(after = OverloadAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(OverloadAutoConfiguration.class)
@ConditionalOnProperty(prefix = "overload.spring.health", name = "enabled", matchIfMissing = true)
public class OverloadBoot3HealthAutoConfiguration {

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
