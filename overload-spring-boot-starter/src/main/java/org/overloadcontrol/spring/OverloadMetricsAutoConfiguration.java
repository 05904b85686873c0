package org.overloadcontrol.spring;

import io.micrometer.core.instrument.MeterRegistry;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.annotation.Bean;

/**
 * Binds the engine's metrics to the application's own {@link MeterRegistry} (Spring Boot's, with
 * Actuator): the registry goes into the servlet-context attribute the metrics bindings read
 * ({@link ObservabilityHandle#REGISTRY_ATTRIBUTE}) before the filter starts, unless the application
 * put one there itself. The meters then appear wherever the application's meters do
 * ({@code /actuator/metrics}, {@code /actuator/prometheus}), named by Micrometer's conventions.
 * Without a registry bean the Micrometer binding records to Micrometer's global registry, as in a
 * WAR. {@code overload.spring.metrics.enabled=false} leaves the attribute alone.
 */
@AutoConfiguration(
    after = OverloadAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
    })
@ConditionalOnClass(
    name = {
      "io.micrometer.core.instrument.MeterRegistry",
      "org.overloadcontrol.metrics.micrometer.MicrometerBinding"
    })
@ConditionalOnBean(OverloadAutoConfiguration.class)
@ConditionalOnProperty(prefix = "overload.spring.metrics", name = "enabled", matchIfMissing = true)
public class OverloadMetricsAutoConfiguration {

  @Bean
  ServletContextInitializer overloadMeterRegistry(ObjectProvider<MeterRegistry> registry) {
    return context -> {
      // The primary registry (Spring Boot's composite) when there are several.
      MeterRegistry r = registry.getIfUnique();
      if (r != null && context.getAttribute(ObservabilityHandle.REGISTRY_ATTRIBUTE) == null) {
        context.setAttribute(ObservabilityHandle.REGISTRY_ATTRIBUTE, r);
      }
    };
  }
}
