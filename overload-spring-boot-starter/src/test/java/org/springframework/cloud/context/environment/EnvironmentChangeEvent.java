package org.springframework.cloud.context.environment;

import java.util.Set;
import org.springframework.context.ApplicationEvent;

/**
 * A stand-in for Spring Cloud Context's event of the same name and shape (its source and the
 * changed keys), so the starter's refresh listener is tested without Spring Cloud on the class
 * path: the starter knows the event by its name only.
 */
public class EnvironmentChangeEvent extends ApplicationEvent {

  private static final long serialVersionUID = 1L;
  private final Set<String> keys;

  public EnvironmentChangeEvent(Object context, Set<String> keys) {
    super(context);
    this.keys = keys;
  }

  /** The changed keys. */
  public Set<String> getKeys() {
    return keys;
  }
}
