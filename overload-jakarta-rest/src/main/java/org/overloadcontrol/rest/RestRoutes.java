package org.overloadcontrol.rest;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.internal.pipeline.HandlerRoutes;

/**
 * Reads the resource methods of Jakarta REST root resource classes, once, into the routes the
 * filter reads ({@link ContributedRoutes}): each resource method is an endpoint (named by {@code @Endpoint} on
 * the method or its class, else {@code SimpleClassName#method}), routed by its HTTP method and
 * its full path template (application path, class {@code @Path}, method {@code @Path}), with
 * the {@code @ResponseTimeTarget}, {@code @RequestClass} and {@code @Degradable} of the method,
 * or of its class when the method has none.
 *
 * <p>Only the Jakarta REST annotations are read (Jakarta RESTful Web Services 3.1 §3.3 and
 * §3.6, annotation inheritance from an overridden method included), not an implementation's
 * resource model, so it works the same with Jersey, RESTEasy or any other; and it runs before
 * the servlet filter starts, so the filter knows every endpoint when it validates its
 * configuration. A sub-resource locator (a {@code @Path} method without an HTTP method) is one
 * endpoint for every request below its path.
 */
final class RestRoutes {

  private RestRoutes() {}

  /**
   * The routes of {@code resources} (classes without {@code @Path} are skipped) served below
   * {@code applicationPath} within the web application ("" or "/" for its root, else e.g.
   * "/api"; a trailing "/*" is dropped).
   *
   * @throws org.overloadcontrol.config.OverloadConfigException when two resource methods that
   *     share an endpoint or a class disagree on its settings, naming both
   */
  static ContributedRoutes of(String applicationPath, Collection<Class<?>> resources) {
    HandlerRoutes handlers = HandlerRoutes.builder("Jakarta REST");
    String base = normalise(applicationPath);
    List<Class<?>> sorted = new ArrayList<>(resources);
    // Start order decides which of two disagreeing annotations is quoted first: keep it stable.
    sorted.sort(Comparator.comparing(Class::getName));
    for (Class<?> type : sorted) {
      Path classPath = type.getAnnotation(Path.class);
      if (classPath == null || type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
        continue;
      }
      String root = join(base, classPath.value());
      List<Method> methods = new ArrayList<>(List.of(type.getMethods()));
      methods.sort(
          Comparator.comparing(Method::getName)
              .thenComparing(m -> List.of(m.getParameterTypes()).toString()));
      for (Method method : methods) {
        if (method.isBridge()
            || method.isSynthetic()
            || method.getDeclaringClass() == Object.class) {
          continue;
        }
        Method annotated = annotatedMethod(type, method);
        if (annotated == null) {
          continue;
        }
        Path methodPath = annotated.getAnnotation(Path.class);
        String template = methodPath == null ? root : join(root, methodPath.value());
        String httpMethod = httpMethod(annotated);
        if (httpMethod == null) {
          // A sub-resource locator: everything below its path.
          handlers.handler(null, List.of(join(template, "**")), type, method);
        } else {
          handlers.handler(httpMethod, List.of(template), type, method);
        }
      }
    }
    return handlers.contributed();
  }

  /**
   * The method, or the method it overrides, that carries the Jakarta REST annotations
   * (annotations on a method are inherited when the overriding method has none of its own,
   * §3.6), or null when neither is a resource method nor a locator.
   */
  private static Method annotatedMethod(Class<?> type, Method method) {
    if (isResourceMethod(method)) {
      return method;
    }
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      Method found = declared(c, method);
      if (found != null && isResourceMethod(found)) {
        return found;
      }
      for (Class<?> i : c.getInterfaces()) {
        found = declared(i, method);
        if (found != null && isResourceMethod(found)) {
          return found;
        }
      }
    }
    return null;
  }

  private static Method declared(Class<?> c, Method method) {
    try {
      return c.getDeclaredMethod(method.getName(), method.getParameterTypes());
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static boolean isResourceMethod(Method m) {
    return m.isAnnotationPresent(Path.class) || httpMethod(m) != null;
  }

  private static String httpMethod(Method m) {
    for (Annotation a : m.getAnnotations()) {
      HttpMethod designator = a.annotationType().getAnnotation(HttpMethod.class);
      if (designator != null) {
        return designator.value();
      }
    }
    return null;
  }

  static String normalise(String applicationPath) {
    String p = applicationPath == null ? "" : applicationPath.trim();
    if (p.endsWith("/*")) {
      p = p.substring(0, p.length() - 2);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.isEmpty() || p.startsWith("/") ? p : "/" + p;
  }

  private static String join(String a, String b) {
    String left = a.endsWith("/") ? a.substring(0, a.length() - 1) : a;
    String right = b.startsWith("/") ? b : "/" + b;
    return right.equals("/") ? (left.isEmpty() ? "/" : left) : left + right;
  }
}
