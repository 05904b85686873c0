package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import org.overloadcontrol.spring.OverloadAutoConfiguration.OverloadStatusEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The filter's status JSON as the {@code overload} actuator endpoint, with Spring Boot Actuator
 * on the class path. The endpoint annotations did not move between Spring Boot 3 and 4, so one
 * class serves both; the health contributor, whose API did move, has one class per major
 * ({@link OverloadBoot3HealthAutoConfiguration}, {@link OverloadBoot4HealthAutoConfiguration}).
 */
@AutoConfiguration(after = OverloadAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(OverloadAutoConfiguration.class)
public class OverloadActuatorAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  OverloadStatusEndpoint overloadStatusEndpoint(
      ServletContext context, PropertiesReload overloadPropertiesReload) {
    return new OverloadStatusEndpoint(context, overloadPropertiesReload);
  }
}
