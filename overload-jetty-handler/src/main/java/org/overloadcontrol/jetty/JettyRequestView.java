package org.overloadcontrol.jetty;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.server.Request;
import org.overloadcontrol.internal.pipeline.ClientAddresses;
import org.overloadcontrol.internal.pipeline.RequestView;

/** A Jetty core request seen through the engine's {@link RequestView}. */
final class JettyRequestView implements RequestView {

  private final Request request;
  private final ClientAddresses clients;

  /** Built on first use: most requests of a server without trusted proxies never need it. */
  private String peerAddress;

  private String clientAddress;

  JettyRequestView(Request request, ClientAddresses clients) {
    this.request = request;
    this.clients = clients;
  }

  /**
   * The connection's peer as a bare IP literal. Not {@code Request.getRemoteAddr}, which puts
   * an IPv6 address in brackets, a form the trusted-proxy matcher does not take.
   */
  static String peerAddress(Request request) {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    if (remote instanceof InetSocketAddress inet) {
      InetAddress address = inet.getAddress();
      return address == null ? inet.getHostString() : address.getHostAddress();
    }
    return remote == null ? null : remote.toString();
  }

  /** The connection's peer address (before any trusted-proxy header is applied). */
  @Override
  public String peerAddress() {
    if (peerAddress == null) {
      peerAddress = peerAddress(request);
    }
    return peerAddress;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  /** The decoded, normalised path within the context, so "/a/../b" is "/b". */
  @Override
  public String path() {
    String path = Request.getPathInContext(request);
    return path == null || path.isEmpty() ? "/" : path;
  }

  @Override
  public String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public String cookie(String name) {
    for (HttpCookie c : Request.getCookies(request)) {
      if (c.getName().equals(name)) {
        return c.getValue();
      }
    }
    return null;
  }

  @Override
  public String clientAddress() {
    if (clientAddress == null) {
      clientAddress =
          clients.resolve(peerAddress(), joined("Forwarded"), joined("X-Forwarded-For"));
    }
    return clientAddress;
  }

  /** All values of a list-valued header joined by commas (a proxy may add its own line). */
  private String joined(String name) {
    List<String> values = request.getHeaders().getValuesList(name);
    return values.isEmpty() ? null : String.join(",", values);
  }

  @Override
  public String requestUri() {
    return request.getHttpURI().getPath();
  }

  @Override
  public String rawQuery() {
    return request.getHttpURI().getQuery();
  }

  @Override
  public boolean secure() {
    return request.isSecure();
  }

  @Override
  public String contextPath() {
    String context = Request.getContextPath(request);
    return context == null ? "" : context;
  }

  @Override
  public long contentLength() {
    return request.getLength();
  }

  @Override
  public Object attribute(String name) {
    return request.getAttribute(name);
  }

  /** A core request is held by returning true from {@code handle}: always. */
  @Override
  public boolean canSuspend() {
    return true;
  }
}
