package org.overloadcontrol.rest;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;

/**
 * Makes the resource methods of a Jakarta REST application endpoints of the overload filter,
 * with no code in the application: the container hands this initializer the classes annotated
 * {@code @Path} and the {@code Application} subclasses when the web application starts, before
 * any filter; it reads them with {@link RestRoutes} and leaves the routes in the servlet-context
 * attribute {@link ContributedRoutes#ATTRIBUTE}, where the filter finds them.
 *
 * <p>The application path is the {@code @ApplicationPath} of the application's
 * {@code Application} subclass, else the mapping of a servlet named after that subclass (the
 * {@code web.xml} form of the specification, §2.3.2), else the web application's root. An
 * embedded server without annotation scanning registers this initializer with the resource
 * classes itself ({@code context.addServletContainerInitializer(new OverloadRestInitializer(),
 * MyResource.class, MyApplication.class)}).
 */
@HandlesTypes({Path.class, ApplicationPath.class, Application.class})
public final class OverloadRestInitializer implements ServletContainerInitializer {

  private static final OverloadLog LOG = OverloadLog.get(OverloadRestInitializer.class);

  @Override
  public void onStartup(Set<Class<?>> classes, ServletContext context) {
    if (classes == null
        || classes.isEmpty()
        || context.getAttribute(ContributedRoutes.ATTRIBUTE) != null) {
      return;
    }
    List<Class<?>> resources = new ArrayList<>();
    String applicationPath = null;
    for (Class<?> c : classes) {
      if (c.isAnnotationPresent(Path.class)) {
        resources.add(c);
      }
      if (Application.class.isAssignableFrom(c) && applicationPath == null) {
        applicationPath = applicationPath(c, context);
      }
    }
    if (resources.isEmpty()) {
      return;
    }
    ContributedRoutes routes =
        RestRoutes.of(applicationPath == null ? "" : applicationPath, resources);
    LOG.debug("overload-control: Jakarta REST routes {}", routes);
    context.setAttribute(ContributedRoutes.ATTRIBUTE, routes.attributeValue());
  }

  private static String applicationPath(Class<?> application, ServletContext context) {
    ApplicationPath path = application.getAnnotation(ApplicationPath.class);
    if (path != null) {
      return path.value();
    }
    ServletRegistration named = context.getServletRegistration(application.getName());
    if (named != null && !named.getMappings().isEmpty()) {
      return named.getMappings().iterator().next();
    }
    return null;
  }
}
