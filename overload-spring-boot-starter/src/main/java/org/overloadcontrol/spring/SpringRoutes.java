package org.overloadcontrol.spring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.internal.pipeline.HandlerRoutes;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Reads Spring MVC's handler methods once, when the web server starts, into the routes the
 * filter reads ({@link ContributedRoutes}): each {@code @RequestMapping} method an endpoint (its
 * {@code @Endpoint}, its class's, else {@code SimpleClassName#method}), routed by its path
 * patterns and HTTP methods below the {@code DispatcherServlet}'s path, with the
 * {@code @ResponseTimeTarget}, {@code @RequestClass} and {@code @Degradable} of the method or
 * its class. Spring resolves nothing per request for the filter: it matches the compiled
 * patterns alone, before the request reaches the {@code DispatcherServlet}.
 */
final class SpringRoutes {

  /** The framework's name, in the log lines and the messages about its routes. */
  static final String FRAMEWORK = "Spring MVC";

  private SpringRoutes() {}

  static ContributedRoutes of(
      RequestMappingHandlerMapping mapping, String servletPrefix, KeyLayer properties) {
    HandlerRoutes handlers = HandlerRoutes.builder(FRAMEWORK);
    String prefix = servletPrefix == null ? "" : servletPrefix;
    List<Map.Entry<RequestMappingInfo, HandlerMethod>> methods =
        new ArrayList<>(mapping.getHandlerMethods().entrySet());
    // A stable order, so that of two disagreeing annotations the same one is quoted first.
    methods.sort(Comparator.comparing(e -> e.getValue().toString()));
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : methods) {
      HandlerMethod handler = e.getValue();
      Class<?> type = ClassUtils.getUserClass(handler.getBeanType());
      List<String> templates = new ArrayList<>();
      for (String pattern : e.getKey().getPatternValues()) {
        templates.add(prefix + (pattern.startsWith("/") ? pattern : "/" + pattern));
      }
      Set<RequestMethod> httpMethods = e.getKey().getMethodsCondition().getMethods();
      if (httpMethods.isEmpty()) {
        handlers.handler(null, templates, type, handler.getMethod());
      }
      for (RequestMethod m : httpMethods) {
        handlers.handler(m.name(), templates, type, handler.getMethod());
      }
    }
    return handlers.properties(properties).contributed();
  }
}
