package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
    List<ClassLoader> loaders = loaders(context);
    for (Map.Entry<String, ? extends ServletRegistration> e : registrations.entrySet()) {
      String className = e.getValue().getClassName();
      if (className != null && isStatusServlet(className, loaders)) {
        names.add(e.getKey());
      }
    }
    return Set.copyOf(names);
  }

  /**
   * Where a servlet's class may be found. An embedded context need not have a class loader of
   * its own (Jetty's {@code ServletContextHandler} without {@code setClassLoader} answers null,
   * and a null loader means the bootstrap loader, which finds no application class): then the
   * thread's and this filter's loaders, which loaded the servlets of such a context.
   */
  private static List<ClassLoader> loaders(ServletContext context) {
    List<ClassLoader> loaders = new ArrayList<>(3);
    for (ClassLoader l :
        new ClassLoader[] {
          context.getClassLoader(),
          Thread.currentThread().getContextClassLoader(),
          StatusServlets.class.getClassLoader()
        }) {
      if (l != null && !loaders.contains(l)) {
        loaders.add(l);
      }
    }
    return loaders;
  }

  private static boolean isStatusServlet(String className, List<ClassLoader> loaders) {
    if (className.equals(OverloadStatusServlet.class.getName())) {
      return true; // the common case needs no class loading at all
    }
    for (ClassLoader loader : loaders) {
      try {
        return OverloadStatusServlet.class.isAssignableFrom(
            Class.forName(className, false, loader));
      } catch (ClassNotFoundException | LinkageError ex) {
        // Not loadable through this loader: try the next.
      }
    }
    return false;
  }
}
