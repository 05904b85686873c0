package org.overloadcontrol.servlet;

import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import org.overloadcontrol.config.OverloadConfigException;
import org.overloadcontrol.internal.pipeline.ConfigLayers;
import org.overloadcontrol.internal.pipeline.ContributedRoutes;
import org.overloadcontrol.internal.pipeline.KeyLayer;
import org.overloadcontrol.internal.pipeline.OperatorConfigFile;
import org.overloadcontrol.internal.pipeline.Settings;

/**
 * Reads the filter's configuration once, at {@code init}: the layers, lowest precedence first
 * (the container's request threads as {@code admission.maxLimit} when JMX tells them and
 * they are not virtual,
 * annotations on the registered servlets, the filter's init-params, the YAML file named by
 * {@code configFile} or else {@link OverloadFilter#DEFAULT_CONFIG_FILE}, the operator's file
 * named by {@link OverloadFilter#CONFIG_FILE_PROPERTY}), every section validated, endpoints
 * checked against the servlets, and the rejection handler created. Kept apart from the filter
 * so that the filter only translates requests.
 *
 * @param endpointByServlet the {@code @Endpoint} of each servlet that has one
 * @param virtualThreads how the container runs requests on virtual threads, or null when it
 *     did not say so at start ({@link VirtualThreads})
 * @param maxLimitFromThreads whether {@code admission.maxLimit} defaults to the container's
 *     request threads ({@link ContainerThreads})
 */
record FilterConfiguration(
    Settings settings,
    Map<String, String> endpointByServlet,
    RejectionHandler rejectionHandler,
    ContributedRoutes frameworkRoutes,
    String virtualThreads,
    boolean maxLimitFromThreads) {

  /**
   * @param fallback the rejection handler when neither the context attribute
   *     {@link RejectionHandler#ATTRIBUTE} nor the {@code rejectionHandler} key names one
   * @throws OverloadConfigException naming the key, value and origin of the first problem
   * @throws ServletException when a file cannot be read
   */
  static FilterConfiguration read(FilterConfig filterConfig, RejectionHandler fallback)
      throws ServletException {
    ServletContext context = filterConfig.getServletContext();
    ServletAnnotations.Result annotations = ServletAnnotations.scan(context);
    Map<String, String> params = new LinkedHashMap<>();
    for (String name : Collections.list(filterConfig.getInitParameterNames())) {
      params.put(name, filterConfig.getInitParameter(name));
    }
    ContributedRoutes routes =
        ContributedRoutes.fromAttribute(
            context.getAttribute(ContributedRoutes.ATTRIBUTE),
            org.overloadcontrol.base.OverloadLog.get(OverloadFilter.class));
    ConfigLayers layers =
        ConfigLayers.builder()
            .annotations(annotations.layer())
            .annotations(routes)
            .keys(
                KeyLayer.of(
                    "web.xml init-param of filter '" + filterConfig.getFilterName() + "'", params))
            .keys(routes)
            .file(loadYaml(context, params.get("configFile")));
    try {
      layers.operatorFile();
    } catch (java.io.UncheckedIOException e) {
      throw new ServletException(e.getMessage(), e);
    }
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    String virtualThreads = VirtualThreads.atStart(jmx, context);
    // On virtual threads no pool bounds the requests, so the container's maxThreads (Tomcat
    // still reports its configured pool) is no ceiling: admission.maxLimit keeps its own.
    if (virtualThreads == null) {
      layers.containerThreads(
          ContainerThreads.ORIGIN, ContainerThreads.count(jmx, context).orElse(0));
    }
    annotations.requireResolved(layers::setAboveAnnotations);
    // The endpoints requests reach by themselves: each servlet's name, or its @Endpoint.
    Set<String> known = new HashSet<>(context.getServletRegistrations().keySet());
    known.addAll(annotations.endpointByServlet().values());
    known.addAll(routes.endpoints());
    Settings settings = layers.knownEndpoints(known).read();
    return new FilterConfiguration(
        settings,
        annotations.endpointByServlet(),
        rejectionHandler(context, settings, fallback),
        routes,
        virtualThreads,
        layers.boundByThreads());
  }

  /** The file the {@code configFile} init-param names, else the default file. */
  private static String configFilePath(String configured) {
    return configured == null || configured.isBlank()
        ? OverloadFilter.DEFAULT_CONFIG_FILE
        : configured.trim();
  }

  private static KeyLayer loadYaml(ServletContext context, String configured)
      throws ServletException {
    String path = configFilePath(configured);
    try {
      InputStream in = path.startsWith("/") ? context.getResourceAsStream(path) : null;
      String name = path;
      if (in == null && configured != null) {
        File file = new File(path);
        if (!file.isFile()) {
          throw OverloadConfigException.of(
              "configFile",
              configured,
              "web.xml init-param",
              "no such file in the web application or on disk");
        }
        in = new FileInputStream(file);
        name = file.getPath();
      }
      if (in == null) {
        return null;
      }
      try (InputStream stream = in) {
        return KeyLayer.yaml(stream, name);
      }
    } catch (IOException e) {
      throw new ServletException("overload-control: cannot read " + path + ": " + e, e);
    }
  }

  /**
   * The YAML files the filter reads that lie on disk, for the reload's watch: the
   * {@code configFile} (or {@link OverloadFilter#DEFAULT_CONFIG_FILE}) where the web application
   * is unpacked or it names a file, and the operator's file. A file inside a packed archive
   * cannot change while it runs and is not watched.
   */
  static List<java.nio.file.Path> filesOnDisk(FilterConfig filterConfig) {
    ServletContext context = filterConfig.getServletContext();
    String configured = filterConfig.getInitParameter("configFile");
    String path = configFilePath(configured);
    List<java.nio.file.Path> files = new ArrayList<>();
    // As loadYaml reads it: the web application's file first, else a file on disk.
    String real = path.startsWith("/") ? context.getRealPath(path) : null;
    if (real != null && new File(real).isFile()) {
      files.add(java.nio.file.Path.of(real));
    } else if (configured != null && new File(path).isFile()) {
      files.add(java.nio.file.Path.of(path));
    } else if (real != null && configured == null) {
      files.add(java.nio.file.Path.of(real)); // the default file, which may be created later
    }
    java.nio.file.Path operator = OperatorConfigFile.path();
    if (operator != null) {
      files.add(operator);
    }
    return files;
  }

  private static RejectionHandler rejectionHandler(
      ServletContext context, Settings settings, RejectionHandler fallback) {
    Object supplied = context.getAttribute(RejectionHandler.ATTRIBUTE);
    if (supplied instanceof RejectionHandler handler) {
      return handler;
    }
    String className = settings.rejectionHandler();
    if (className == null || className.isBlank()) {
      return fallback;
    }
    try {
      Class<?> type = Class.forName(className.trim(), true, context.getClassLoader());
      if (!RejectionHandler.class.isAssignableFrom(type)) {
        throw OverloadConfigException.of(
            "rejectionHandler",
            className,
            null,
            "the class does not implement " + RejectionHandler.class.getName());
      }
      return (RejectionHandler) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw OverloadConfigException.of(
          "rejectionHandler",
          className,
          null,
          "cannot create it (a public class with a public no-argument constructor): " + e);
    }
  }
}
