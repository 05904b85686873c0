package org.overloadcontrol.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.classify.RequestAttributes;

/** A servlet request seen through the engine's {@link RequestAttributes}. */
final class ServletRequestAttributes implements RequestAttributes {

  private final HttpServletRequest request;
  private final ClientAddressResolver clients;
  private String clientAddress;

  ServletRequestAttributes(HttpServletRequest request, ClientAddressResolver clients) {
    this.request = request;
    this.clients = clients;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  /** Servlet path plus path info: decoded and normalised by the container, so "/a/../b" is "/b". */
  @Override
  public String path() {
    return pathOf(request);
  }

  /** Servlet path plus path info, "/" when both are empty. */
  static String pathOf(HttpServletRequest request) {
    String servletPath = request.getServletPath();
    String pathInfo = request.getPathInfo();
    if (pathInfo == null && servletPath != null && !servletPath.isEmpty()) {
      // A servlet mapped to "/" or an exact path (Spring's DispatcherServlet): no new string.
      return servletPath;
    }
    String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }

  @Override
  public String header(String name) {
    return request.getHeader(name);
  }

  @Override
  public String cookie(String name) {
    Cookie[] cookies = request.getCookies();
    if (cookies != null) {
      for (Cookie c : cookies) {
        if (c.getName().equals(name)) {
          return c.getValue();
        }
      }
    }
    return null;
  }

  @Override
  public String clientAddress() {
    if (clientAddress == null) {
      clientAddress = clients.resolve(request.getRemoteAddr(), joined("Forwarded"),
          joined("X-Forwarded-For"));
    }
    return clientAddress;
  }

  /** All values of a list-valued header joined by commas (a proxy may add its own line). */
  private String joined(String name) {
    java.util.Enumeration<String> values = request.getHeaders(name);
    return values == null || !values.hasMoreElements() ? null
        : String.join(",", java.util.Collections.list(values));
  }
}
