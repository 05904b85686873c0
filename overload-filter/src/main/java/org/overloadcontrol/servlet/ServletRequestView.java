package org.overloadcontrol.servlet;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.overloadcontrol.internal.pipeline.ClientAddresses;
import org.overloadcontrol.internal.pipeline.RequestView;

/** A servlet request seen through the engine's {@link RequestView}. */
final class ServletRequestView implements RequestView {

  private final HttpServletRequest request;
  private final ClientAddresses clients;
  private String clientAddress;

  ServletRequestView(HttpServletRequest request, ClientAddresses clients) {
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
      clientAddress =
          clients.resolve(request.getRemoteAddr(), joined("Forwarded"), joined("X-Forwarded-For"));
    }
    return clientAddress;
  }

  /** All values of a list-valued header joined by commas (a proxy may add its own line). */
  private String joined(String name) {
    java.util.Enumeration<String> values = request.getHeaders(name);
    return values == null || !values.hasMoreElements()
        ? null
        : String.join(",", java.util.Collections.list(values));
  }

  @Override
  public String peerAddress() {
    return request.getRemoteAddr();
  }

  @Override
  public String requestUri() {
    return request.getRequestURI();
  }

  @Override
  public String rawQuery() {
    return request.getQueryString();
  }

  @Override
  public boolean secure() {
    return request.isSecure();
  }

  @Override
  public String contextPath() {
    return request.getContextPath();
  }

  @Override
  public long contentLength() {
    return request.getContentLengthLong();
  }

  @Override
  public String containerSessionId() {
    return request.isRequestedSessionIdValid() ? request.getRequestedSessionId() : null;
  }

  @Override
  public Object attribute(String name) {
    return request.getAttribute(name);
  }

  @Override
  public boolean canSuspend() {
    return request.isAsyncSupported();
  }

  /**
   * The form body, read on the request's thread (at most {@code maxBytes + 1} bytes, as a
   * servlet reads a body); null when it is larger.
   */
  static byte[] formBody(HttpServletRequest request, int maxBytes) throws IOException {
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(maxBytes + 1);
    }
    return body.length > maxBytes ? null : body;
  }
}
