package org.overloadcontrol.internal.virtualqueue;

import java.util.Objects;

/**
 * What the virtual queue needs to know of one request, read by the adapter (servlet filter or
 * Jetty handler) from its own request type, so that {@link VirtualQueueFrontEnd} decides and
 * renders the same answer for both (WebQ §II-C, TokenGen and TokenCheck in front of the
 * protected pages).
 *
 * @param clientAddress the client's address, behind trusted proxies the forwarded one
 *     ({@code RequestAttributes.clientAddress()}); tokens are bound to it
 * @param path the decoded path within the application, for {@code virtualQueue.paths} and
 *     {@code types}
 * @param requestUri the raw (still percent-encoded) request path: the URL tokens are bound to
 *     and the token cookie's path
 * @param rawQuery the raw query string, or null; may hold the token ({@code oc_token})
 * @param method the HTTP method
 * @param accept the {@code Accept} header, or null: a browser gets pages, others JSON
 * @param contentType the {@code Content-Type} header, or null
 * @param contentLength the declared body length, or −1 when unknown
 * @param cookieToken the value of the {@code oc_token} cookie, or null
 * @param secure whether the request came over HTTPS (the cookie is then {@code Secure})
 */
public record VirtualQueueVisit(
    String clientAddress,
    String path,
    String requestUri,
    String rawQuery,
    String method,
    String accept,
    String contentType,
    long contentLength,
    String cookieToken,
    boolean secure) {

  public VirtualQueueVisit {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(requestUri, "requestUri");
    Objects.requireNonNull(method, "method");
  }
}
