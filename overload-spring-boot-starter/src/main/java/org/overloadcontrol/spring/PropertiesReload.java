package org.overloadcontrol.spring;

import jakarta.servlet.ServletContext;
import java.util.concurrent.locks.ReentrantLock;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.servlet.OverloadFilter;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Reloads the overload filter with the {@code overload.*} properties as the environment holds
 * them now (docs/guide/reload.md): the properties layer is read again and the filter reads every
 * layer again and validates the whole as at start. A refused reload leaves the properties layer
 * the running configuration was read from, so a later reload of the filter's file is not
 * refused for a property that was refused already.
 */
final class PropertiesReload {

  private final ConfigurableEnvironment environment;
  private final ServletContext context;
  private final OverloadFilter filter;
  private final ReentrantLock reloading = new ReentrantLock();

  PropertiesReload(
      ConfigurableEnvironment environment, ServletContext context, OverloadFilter filter) {
    this.environment = environment;
    this.context = context;
    this.filter = filter;
  }

  /**
   * @throws IllegalStateException when the filter is not running
   */
  ReloadResult reload() {
    reloading.lock();
    try {
      ContributedRoutes before =
          ContributedRoutes.held(
              context.getAttribute(ContributedRoutes.ATTRIBUTE), SpringRoutes.FRAMEWORK);
      context.setAttribute(
          ContributedRoutes.ATTRIBUTE,
          before.withProperties(SpringProperties.layer(environment)).attributeValue());
      ReloadResult result = filter.reload();
      if (!result.applied()) {
        context.setAttribute(ContributedRoutes.ATTRIBUTE, before.attributeValue());
      }
      return result;
    } finally {
      reloading.unlock();
    }
  }
}
