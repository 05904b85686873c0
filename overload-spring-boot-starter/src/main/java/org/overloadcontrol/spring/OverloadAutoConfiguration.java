package org.overloadcontrol.spring;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import java.util.HashSet;
import java.util.Set;
import org.overloadcontrol.ReloadResult;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.ConfigLayers;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.internal.pipeline.HandlerRoutes;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.overloadcontrol.internal.pipeline.ObservabilityHandle;
import org.overloadcontrol.servlet.OverloadFilter;
import org.overloadcontrol.servlet.OverloadStatusServlet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Puts the overload filter in front of Spring MVC in a Spring Boot 3.5 or 4 servlet
 * application: the filter is registered for every request (async-supported, ahead of the
 * application's own filters), each {@code @RequestMapping} handler method becomes an endpoint read from its
 * annotations ({@link SpringRoutes}), and the {@code overload.*} properties are one more
 * configuration layer ({@link SpringProperties}) with the same keys and the same key-naming
 * errors as the filter's YAML file; a bad one stops the application as it starts.
 *
 * <p>One pipeline: the servlet filter does the admitting, queueing and measuring, exactly as
 * in a WAR; this class only hands it the routes, through the servlet-context attribute
 * {@link ContributedRoutes#ATTRIBUTE}, before the filter starts. The actuator's health and metrics
 * paths are kept out of overload control, and the WAR's status servlet (dashboard, status JSON)
 * is registered here; the actuator endpoint, the health contributor and the Micrometer binding
 * are auto-configurations of their own ({@link OverloadActuatorAutoConfiguration},
 * {@link OverloadBoot3HealthAutoConfiguration}, {@link OverloadBoot4HealthAutoConfiguration},
 * {@link OverloadMetricsAutoConfiguration}).
 *
 * <p>Spring Boot 4 moved Spring MVC's auto-configuration to another package, so this class names
 * what it follows by name, both majors' names, and refers to no class that only one of them has.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration",
      "org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration",
      "org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration",
      "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration"
    })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({DispatcherServlet.class, OverloadFilter.class})
@ConditionalOnProperty(prefix = "overload.spring", name = "enabled", matchIfMissing = true)
public class OverloadAutoConfiguration {

  /** The filter's name; its status and metrics carry it. */
  public static final String FILTER_NAME = "overload";

  /** The status servlet's name. */
  static final String STATUS_SERVLET_NAME = "overload-status";

  /** The name Spring Boot gives the {@code DispatcherServlet}'s bean and registration. */
  static final String DISPATCHER_SERVLET = "dispatcherServlet";

  @Bean
  @ConditionalOnMissingBean(name = "overloadFilterRegistration")
  FilterRegistrationBean<OverloadFilter> overloadFilterRegistration() {
    FilterRegistrationBean<OverloadFilter> registration =
        new FilterRegistrationBean<>(new OverloadFilter());
    registration.setName(FILTER_NAME);
    registration.addUrlPatterns("/*");
    registration.setAsyncSupported(true);
    // ASYNC: the re-dispatch of a request that waited says when its application starts.
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    // Before security and the application's filters: a refusal should cost as little as can be.
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
    return registration;
  }

  /**
   * The status servlet of a WAR, with its dashboard, status JSON and Prometheus text, at
   * {@code /overload/} ({@code overload.spring.status.path} moves it;
   * {@code overload.spring.status.enabled=false} leaves it out). It is the WAR's servlet, so the
   * access rules are the WAR's ({@code status.allow}, {@code status.role}, else loopback only),
   * and the filter passes its requests through uncontrolled, as it does every status servlet's.
   * An application that registers the servlet itself keeps its own: two on one mapping would
   * leave one unreachable.
   */
  @Bean
  @ConditionalOnMissingBean(
      value = OverloadStatusServlet.class,
      parameterizedContainer = ServletRegistrationBean.class)
  @ConditionalOnProperty(prefix = "overload.spring.status", name = "enabled", matchIfMissing = true)
  ServletRegistrationBean<OverloadStatusServlet> overloadStatusServletRegistration(
      ConfigurableEnvironment environment) {
    ServletRegistrationBean<OverloadStatusServlet> registration =
        new ServletRegistrationBean<>(new OverloadStatusServlet(), statusPath(environment) + "/*");
    registration.setName(STATUS_SERVLET_NAME);
    return registration;
  }

  /** {@code overload.spring.status.path}, without a trailing slash; refused unless it is a path. */
  static String statusPath(ConfigurableEnvironment environment) {
    String key = "overload.spring.status.path";
    String value = environment.getProperty(key, "/overload");
    String path = value.trim();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (!path.startsWith("/") || path.contains("*") || path.isEmpty()) {
      throw OverloadConfigException.of(
          key,
          value,
          "Spring properties",
          "the status servlet's path must start with '/' and name a path below the root,"
              + " such as /overload");
    }
    return path;
  }

  /**
   * Leaves the routes and the properties layer in the servlet context before the filter
   * starts, and validates them here, so that a bad property stops the application with the
   * key-naming error itself (the filter would only log it and fail the web server).
   */
  @Bean
  ServletContextInitializer overloadRoutes(
      ConfigurableEnvironment environment,
      @Qualifier("requestMappingHandlerMapping")
          ObjectProvider<RequestMappingHandlerMapping> handlerMapping) {
    return context -> {
      KeyLayer properties = SpringProperties.layer(environment);
      RequestMappingHandlerMapping mapping = handlerMapping.getIfAvailable();
      ContributedRoutes routes =
          mapping == null
              ? HandlerRoutes.builder(SpringRoutes.FRAMEWORK).properties(properties).contributed()
              : SpringRoutes.of(mapping, dispatcherServletPrefix(environment), properties);
      Set<String> known = new HashSet<>(routes.endpoints());
      known.addAll(context.getServletRegistrations().keySet());
      known.add(DISPATCHER_SERVLET);
      ConfigLayers.builder().annotations(routes).keys(routes).knownEndpoints(known).read();
      context.setAttribute(ContributedRoutes.ATTRIBUTE, routes.attributeValue());
      Integer threads = tomcatThreads(environment, context);
      if (threads != null) {
        context.setAttribute(OverloadFilter.CONTAINER_THREADS_ATTRIBUTE, threads);
      }
    };
  }

  /**
   * The embedded Tomcat's request threads ({@code server.tomcat.threads.max}, Spring Boot's
   * default 200), which the filter cannot read itself because Spring Boot turns Tomcat's JMX
   * registry off; null on another server (the filter reads Jetty's pool itself) and on virtual
   * threads, where no pool bounds the requests.
   */
  static Integer tomcatThreads(ConfigurableEnvironment environment, ServletContext context) {
    if (environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
        || !context.getClass().getName().startsWith("org.apache.catalina.")) {
      return null;
    }
    return environment.getProperty("server.tomcat.threads.max", Integer.class, 200);
  }

  /**
   * The path below which the {@code DispatcherServlet} is mapped, without a trailing slash
   * ({@code ""} for {@code /}): what {@code DispatcherServletPath.getPrefix()} answers, read from
   * the property both Spring Boot majors bind it from, since the class itself moved in 4.0.
   */
  static String dispatcherServletPrefix(ConfigurableEnvironment environment) {
    String path = environment.getProperty("spring.mvc.servlet.path", "/").trim();
    if (path.endsWith("*")) {
      path = path.substring(0, path.length() - 1);
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path;
  }

  /**
   * Reloads the filter with the {@code overload.*} properties as they are now
   * (docs/guide/reload.md): the actuator's write operation and a Spring Cloud refresh call it.
   */
  @Bean
  PropertiesReload overloadPropertiesReload(
      ConfigurableEnvironment environment,
      ServletContext context,
      @Qualifier("overloadFilterRegistration")
          FilterRegistrationBean<OverloadFilter> overloadFilterRegistration) {
    return new PropertiesReload(environment, context, overloadFilterRegistration.getFilter());
  }

  /**
   * With Spring Cloud's refresh on the class path: a changed {@code overload.*} property is
   * reloaded when its {@code EnvironmentChangeEvent} is published.
   */
  @Bean
  @ConditionalOnClass(name = OverloadRefreshListener.EVENT)
  OverloadRefreshListener overloadRefreshListener(PropertiesReload overloadPropertiesReload) {
    return new OverloadRefreshListener(overloadPropertiesReload);
  }

  /**
   * The filter's status JSON (what {@code /overload/status} serves in a WAR) at
   * {@code /actuator/overload}, once exposed ({@code management.endpoints.web.exposure.include});
   * a POST to it reloads the {@code overload.*} properties ({@link #reload}).
   */
  @org.springframework.boot.actuate.endpoint.annotation.Endpoint(id = "overload")
  public static class OverloadStatusEndpoint {
    private final ServletContext context;
    private final PropertiesReload reload;

    OverloadStatusEndpoint(ServletContext context, PropertiesReload reload) {
      this.context = context;
      this.reload = reload;
    }

    @ReadOperation(produces = "application/json")
    public String status() {
      ObservabilityHandle o =
          ObservabilityHandle.of(context.getAttribute(ObservabilityHandle.ATTRIBUTE));
      return o == null ? "{}" : o.statusJson();
    }

    /**
     * Reloads the configuration with the {@code overload.*} properties as they are now: the
     * new version and what changed, or the refusal naming the key, value and layer, the
     * running configuration staying in force.
     */
    @WriteOperation
    public java.util.Map<String, Object> reload() {
      ReloadResult r = reload.reload();
      java.util.Map<String, Object> answer = new java.util.LinkedHashMap<>();
      answer.put("result", r.result());
      answer.put("configVersion", r.version());
      answer.put("message", r.message());
      answer.put("changes", r.changes());
      answer.put("time", r.at().toString());
      return answer;
    }
  }
}
