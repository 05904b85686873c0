package org.overloadcontrol.internal.pipeline;

import java.lang.reflect.Method;
import java.util.Objects;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.config.FrameworkRoutes;

/**
 * Turns a framework's handler methods (Jakarta REST resource methods, Spring
 * {@code @RequestMapping} methods) into {@link FrameworkRoutes}: each method an endpoint, its
 * annotations and its class's the keys of the lowest configuration layer. Read once, when the
 * framework module starts; never per request.
 *
 * <p>Naming: a handler method's endpoint is its {@link Endpoint} if it has one, else its
 * class's, else {@code SimpleClassName#method} (a name that stays the same when a path
 * template changes, and holds no dot, so it reads as one segment in {@code endpoints.<e>.*}
 * keys). Precedence: an annotation on the method wins over the same annotation on its class.
 * Two methods that share an endpoint (or define one class) must agree: which one should win
 * would be a guess, so a disagreement is an error naming both.
 */
public final class HandlerRoutes {

  private final FrameworkRoutes.Builder routes;
  private final AnnotationKeys keys;

  private HandlerRoutes(String framework) {
    this.routes = FrameworkRoutes.builder(framework);
    this.keys =
        AnnotationKeys.throwing(
            framework + " annotations",
            "handler methods that share an endpoint or a class must agree");
  }

  /** Handler methods of {@code framework} ("Jakarta REST", "Spring MVC": for messages). */
  public static HandlerRoutes builder(String framework) {
    return new HandlerRoutes(framework);
  }

  /** The endpoint of {@code method} of {@code type}: see the class comment. */
  public static String endpointName(Class<?> type, Method method) {
    Endpoint e = method.getAnnotation(Endpoint.class);
    if (e == null) {
      e = type.getAnnotation(Endpoint.class);
    }
    if (e != null) {
      String name = e.value().trim();
      if (name.isEmpty()) {
        throw new OverloadConfigException(
            "@Endpoint",
            "overload-control configuration:"
                + " @Endpoint on "
                + describe(type, method)
                + " has an empty name");
      }
      return name;
    }
    return type.getSimpleName() + "#" + method.getName();
  }

  /**
   * Adds a handler method: requests of {@code httpMethod} whose path matches one of
   * {@code templates} go to its endpoint.
   *
   * @param httpMethod upper case, or null for any method
   * @param templates path templates within the application (see {@link FrameworkRoutes})
   * @param type the class whose annotations the method's missing ones default to (the bean's
   *     class, not a proxy's)
   * @return the endpoint's name
   * @throws OverloadConfigException when the annotations disagree with another method's
   */
  public String handler(
      String httpMethod, Iterable<String> templates, Class<?> type, Method method) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(method, "method");
    String endpoint = endpointName(type, method);
    for (String template : templates) {
      try {
        routes.route(httpMethod, template, endpoint);
      } catch (IllegalArgumentException e) {
        throw new OverloadConfigException(
            "paths",
            "overload-control configuration: " + describe(type, method) + ": " + e.getMessage());
      }
    }
    keys.put(
        endpoint,
        find(ResponseTimeTarget.class, type, method),
        find(Degradable.class, type, method),
        find(RequestClass.class, type, method),
        describe(type, method));
    return endpoint;
  }

  /**
   * Keys from the framework's own configuration (Spring's {@code overload.*} properties); null:
   * none.
   */
  public HandlerRoutes properties(KeyLayer properties) {
    routes.properties(properties == null ? null : properties.source());
    return this;
  }

  public FrameworkRoutes build() {
    return routes.annotations(keys.source()).build();
  }

  /** The routes built, as the filter reads them: what a framework module leaves for it. */
  public ContributedRoutes contributed() {
    return ContributedRoutes.of(build());
  }

  private static <A extends java.lang.annotation.Annotation> A find(
      Class<A> annotation, Class<?> type, Method method) {
    A onMethod = method.getAnnotation(annotation);
    return onMethod != null ? onMethod : type.getAnnotation(annotation);
  }

  private static String describe(Class<?> type, Method method) {
    return type.getName() + "#" + method.getName();
  }
}
