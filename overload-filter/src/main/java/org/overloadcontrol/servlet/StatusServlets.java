package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Finds the {@link OverloadStatusServlet}s of an application, so that the filter lets their
 * requests through without admission control: an operator must still see the dashboard while
 * the application is shedding load, and its polls must not count as the application's traffic.
 */
final class StatusServlets {

  private StatusServlets() {}

  /** The names of the servlets registered with {@link OverloadStatusServlet} or a subclass. */
  static Set<String> names(ServletContext context) {
    Set<String> names = new HashSet<>();
    Map<String, ? extends ServletRegistration> registrations = context.getServletRegistrations();
    if (registrations == null) {
      return Set.of();
    }
    for (Map.Entry<String, ? extends ServletRegistration> e : registrations.entrySet()) {
      String className = e.getValue().getClassName();
      if (className == null) {
        continue;
      }
      try {
        Class<?> type = Class.forName(className, false, context.getClassLoader());
        if (OverloadStatusServlet.class.isAssignableFrom(type)) {
          names.add(e.getKey());
        }
      } catch (ClassNotFoundException | LinkageError ex) {
        // Not loadable here, so not ours.
      }
    }
    return Set.copyOf(names);
  }
}
