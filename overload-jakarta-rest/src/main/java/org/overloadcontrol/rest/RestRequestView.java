package org.overloadcontrol.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import java.net.URI;
import org.overloadcontrol.internal.pipeline.RequestView;

/**
 * A Jakarta REST request seen through the engine's {@link RequestView}, for the filter-only
 * mode ({@link OverloadRestFeature}). Jakarta REST does not give a filter the connection's peer
 * address or a container session, so both are unknown; and a filter cannot be suspended
 * (Jakarta RESTful Web Services 3.1 §6: {@code @Suspended} belongs to resource methods), so a
 * request the engine would hold is held on its thread or refused, as {@code queue.nonAsync}
 * says.
 */
final class RestRequestView implements RequestView {

  private final ContainerRequestContext request;

  RestRequestView(ContainerRequestContext request) {
    this.request = request;
  }

  /** Not available to a Jakarta REST filter. */
  @Override
  public String peerAddress() {
    return null;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  /** The decoded path below the application's base URI, starting with "/". */
  @Override
  public String path() {
    String path = request.getUriInfo().getPath();
    return path.startsWith("/") ? path : "/" + path;
  }

  /** The header's values, joined by commas when it has several. */
  @Override
  public String header(String name) {
    return request.getHeaderString(name);
  }

  @Override
  public String cookie(String name) {
    Cookie cookie = request.getCookies().get(name);
    return cookie == null ? null : cookie.getValue();
  }

  /** Unknown: the peer address is not available, and only a trusted proxy could name it. */
  @Override
  public String clientAddress() {
    return null;
  }

  @Override
  public String requestUri() {
    return request.getUriInfo().getRequestUri().getRawPath();
  }

  @Override
  public String rawQuery() {
    return request.getUriInfo().getRequestUri().getRawQuery();
  }

  @Override
  public boolean secure() {
    return request.getSecurityContext().isSecure();
  }

  /** The application's base path without its trailing slash, "" for the root. */
  @Override
  public String contextPath() {
    URI base = request.getUriInfo().getBaseUri();
    String path = base.getRawPath();
    return path == null || path.equals("/")
        ? ""
        : path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  @Override
  public long contentLength() {
    return request.getLength();
  }

  @Override
  public Object attribute(String name) {
    return request.getProperty(name);
  }

  /** A Jakarta REST filter cannot be suspended: see the class comment. */
  @Override
  public boolean canSuspend() {
    return false;
  }
}
