package org.overloadcontrol.spring;

import java.util.Collection;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

/**
 * Reloads the overload filter when Spring Cloud's {@code EnvironmentChangeEvent} says an
 * {@code overload.*} property changed (a configuration refresh). Spring Cloud is not a
 * dependency: the event is recognised by its class name and its keys read through its public
 * {@code getKeys()}, so the starter works with and without it.
 */
final class OverloadRefreshListener implements ApplicationListener<ApplicationEvent> {

  /** Spring Cloud Context's event, published after a refresh changed properties. */
  static final String EVENT =
      "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

  private final PropertiesReload reload;

  OverloadRefreshListener(PropertiesReload reload) {
    this.reload = reload;
  }

  @Override
  public void onApplicationEvent(ApplicationEvent event) {
    if (!event.getClass().getName().equals(EVENT) || !overloadKeyChanged(event)) {
      return;
    }
    // The reload logs its own line, applied or refused; a refused one changes nothing.
    reload.reload();
  }

  private static boolean overloadKeyChanged(ApplicationEvent event) {
    try {
      Object keys = event.getClass().getMethod("getKeys").invoke(event);
      if (keys instanceof Collection<?> changed) {
        return changed.stream()
            .anyMatch(
                k ->
                    String.valueOf(k).startsWith(SpringProperties.PREFIX)
                        && !String.valueOf(k).startsWith(SpringProperties.STARTER_PREFIX));
      }
      return true;
    } catch (ReflectiveOperationException e) {
      return true; // an event of another shape: reloading changes nothing when nothing changed
    }
  }
}
