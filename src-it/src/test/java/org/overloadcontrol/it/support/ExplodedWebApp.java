package org.overloadcontrol.it.support;

import jakarta.servlet.Servlet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles an exploded web application at test time: a directory with nothing but a
 * {@code WEB-INF/web.xml} that declares servlets (and optionally {@code OverloadFilter} with
 * init-params). The classes come from the test class path, which both containers' web-app
 * class loaders reach through their parent.
 */
public final class ExplodedWebApp {

  private record ServletDecl(
      String name,
      Class<? extends Servlet> type,
      Map<String, String> initParams,
      List<String> urlPatterns) {}

  private Map<String, String> filterParams;
  private String filterClass = "org.overloadcontrol.servlet.OverloadFilter";
  private final List<ServletDecl> servlets = new ArrayList<>();
  private final java.util.Set<String> withoutAsync = new java.util.HashSet<>();
  private final Map<String, Class<?>> applicationFilters = new LinkedHashMap<>();

  /** Declares {@code OverloadFilter} on {@code /*} with these init-params. */
  public ExplodedWebApp withOverloadFilter(Map<String, String> initParams) {
    this.filterParams = new LinkedHashMap<>(initParams);
    return this;
  }

  /** Declares this subclass of {@code OverloadFilter} instead of it, with these init-params. */
  public ExplodedWebApp withOverloadFilter(Class<?> type, Map<String, String> initParams) {
    this.filterClass = type.getName();
    return withOverloadFilter(initParams);
  }

  /**
   * Declares an application's own filter on {@code /*}, async-supported, before the overload
   * filter (first in the chain, as a tracing or metrics filter usually is).
   */
  public ExplodedWebApp withApplicationFilter(String name, Class<?> type) {
    applicationFilters.put(name, type);
    return this;
  }

  /** Declares a servlet named {@code name} on {@code urlPatterns}. */
  public ExplodedWebApp withServlet(
      String name,
      Class<? extends Servlet> type,
      Map<String, String> initParams,
      String... urlPatterns) {
    servlets.add(
        new ServletDecl(name, type, new LinkedHashMap<>(initParams), List.of(urlPatterns)));
    return this;
  }

  /**
   * Declares the named filter ({@code overload}) or servlets without
   * {@code <async-supported>} (everything is async-supported otherwise).
   */
  public ExplodedWebApp withoutAsyncSupport(String... names) {
    withoutAsync.addAll(List.of(names));
    return this;
  }

  /** Writes the application into a new directory under {@code parent}; returns it. */
  public Path writeUnder(Path parent, String name) throws IOException {
    Path dir = Files.createDirectories(parent.resolve(name));
    Path webInf = Files.createDirectories(dir.resolve("WEB-INF"));
    Files.writeString(webInf.resolve("web.xml"), webXml(), StandardCharsets.UTF_8);
    return dir;
  }

  String webXml() {
    StringBuilder x = new StringBuilder();
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\"\n")
        .append("  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n")
        .append("  xsi:schemaLocation=\"https://jakarta.ee/xml/ns/jakartaee")
        .append(" https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd\"\n")
        .append("  version=\"6.0\" metadata-complete=\"true\">\n");
    applicationFilters.forEach(
        (name, type) ->
            x.append("  <filter>\n    <filter-name>")
                .append(name)
                .append("</filter-name>\n    <filter-class>")
                .append(type.getName())
                .append("</filter-class>\n    <async-supported>true</async-supported>\n")
                .append("  </filter>\n  <filter-mapping>\n    <filter-name>")
                .append(name)
                .append("</filter-name>\n    <url-pattern>/*</url-pattern>\n")
                .append("  </filter-mapping>\n"));
    if (filterParams != null) {
      x.append("  <filter>\n    <filter-name>overload</filter-name>\n")
          .append("    <filter-class>")
          .append(filterClass)
          .append("</filter-class>\n")
          .append(
              withoutAsync.contains("overload")
                  ? ""
                  : "    <async-supported>true</async-supported>\n");
      params(x, filterParams);
      x.append("  </filter>\n  <filter-mapping>\n    <filter-name>overload</filter-name>\n")
          .append("    <url-pattern>/*</url-pattern>\n")
          .append("    <dispatcher>REQUEST</dispatcher>\n    <dispatcher>ASYNC</dispatcher>\n")
          .append("  </filter-mapping>\n");
    }
    for (ServletDecl s : servlets) {
      x.append("  <servlet>\n    <servlet-name>")
          .append(s.name())
          .append("</servlet-name>\n")
          .append("    <servlet-class>")
          .append(s.type().getName())
          .append("</servlet-class>\n");
      params(x, s.initParams());
      x.append(
              withoutAsync.contains(s.name())
                  ? ""
                  : "    <async-supported>true</async-supported>\n")
          .append("  </servlet>\n");
      for (String pattern : s.urlPatterns()) {
        x.append("  <servlet-mapping>\n    <servlet-name>")
            .append(s.name())
            .append("</servlet-name>\n    <url-pattern>")
            .append(pattern)
            .append("</url-pattern>\n  </servlet-mapping>\n");
      }
    }
    return x.append("</web-app>\n").toString();
  }

  private static void params(StringBuilder x, Map<String, String> params) {
    params.forEach(
        (k, v) ->
            x.append("    <init-param><param-name>")
                .append(k)
                .append("</param-name><param-value>")
                .append(v)
                .append("</param-value></init-param>\n"));
  }
}
