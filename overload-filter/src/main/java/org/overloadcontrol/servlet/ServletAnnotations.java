package org.overloadcontrol.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.overloadcontrol.annotation.Degradable;
import org.overloadcontrol.annotation.Endpoint;
import org.overloadcontrol.annotation.RequestClass;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.overloadcontrol.base.OverloadLog;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.AnnotationKeys;
import org.overloadcontrol.internal.pipeline.KeyLayer;

/**
 * Reads {@link Endpoint}, {@link RequestClass}, {@link ResponseTimeTarget} and
 * {@link Degradable} from the servlets
 * registered in a context and turns them into the lowest configuration layer plus the map from
 * servlet name to endpoint name. Two servlets that define one class differently, or one endpoint
 * with two targets, are an error: which one should win would be a guess.
 */
final class ServletAnnotations {

  private static final OverloadLog LOG = OverloadLog.get(ServletAnnotations.class);

  /**
   * The layer of keys, the servlet-name-to-endpoint map, and the keys on which annotations
   * disagree (each with its error), which are errors unless a higher layer sets the key.
   */
  record Result(
      KeyLayer layer,
      Map<String, String> endpointByServlet,
      Map<String, OverloadConfigException> conflicts) {

    /** Throws the first conflict whose key no higher layer decides. */
    void requireResolved(java.util.function.Predicate<String> decidedAbove) {
      for (Map.Entry<String, OverloadConfigException> c : conflicts.entrySet()) {
        if (!decidedAbove.test(c.getKey())) {
          throw c.getValue();
        }
      }
    }
  }

  private ServletAnnotations() {}

  static Result scan(ServletContext context) {
    Map<String, Class<?>> servlets = new LinkedHashMap<>();
    ClassLoader loader = context.getClassLoader();
    for (Map.Entry<String, ? extends ServletRegistration> e :
        context.getServletRegistrations().entrySet()) {
      String className = e.getValue().getClassName();
      if (className == null) {
        continue;
      }
      try {
        servlets.put(e.getKey(), Class.forName(className, false, loader));
      } catch (ClassNotFoundException | LinkageError ex) {
        LOG.debug(
            "overload-control: cannot load servlet class {} to read its annotations",
            className,
            ex);
      }
    }
    return scan(servlets);
  }

  static Result scan(Map<String, Class<?>> servlets) {
    AnnotationKeys keys =
        AnnotationKeys.collecting(
            "annotations",
            "annotations that share a class or endpoint must agree"
                + " (or set the key in web.xml or overload.yaml to decide)");
    Map<String, String> endpointByServlet = new LinkedHashMap<>();
    for (Map.Entry<String, Class<?>> e : servlets.entrySet()) {
      Class<?> type = e.getValue();
      Endpoint endpoint = type.getAnnotation(Endpoint.class);
      String endpointName = endpoint == null ? e.getKey() : endpoint.value().trim();
      if (endpoint != null) {
        if (endpointName.isEmpty()) {
          throw new OverloadConfigException(
              "@Endpoint",
              "overload-control configuration:"
                  + " @Endpoint on "
                  + type.getName()
                  + " has an empty name");
        }
        endpointByServlet.put(e.getKey(), endpointName);
      }
      keys.put(
          endpointName,
          type.getAnnotation(ResponseTimeTarget.class),
          type.getAnnotation(Degradable.class),
          type.getAnnotation(RequestClass.class),
          type.getName());
    }
    return new Result(
        keys.layer(), Collections.unmodifiableMap(endpointByServlet), keys.conflicts());
  }
}
