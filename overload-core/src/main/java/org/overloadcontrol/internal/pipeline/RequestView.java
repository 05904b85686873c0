package org.overloadcontrol.internal.pipeline;

import org.overloadcontrol.internal.bandwidth.BandwidthShaper;
import org.overloadcontrol.internal.classify.RequestAttributes;

/**
 * One request as the engine's pipeline reads it, free of any container type: each adapter
 * (servlet filter, Jetty handler) reads its own request into this view and hands it to
 * {@link RequestPipeline#start}. Beyond what classification rules see
 * ({@link RequestAttributes}), it carries what the virtual queue (WebQ §II-C), session-aware
 * admission (Cherkasova &amp; Phaal §4) and bandwidth shares (Li &amp; Jamin §V) ask of a
 * request.
 */
public interface RequestView extends RequestAttributes {

  /** The connection's peer address (compared with the trusted proxies), or null. */
  String peerAddress();

  /** The raw, still percent-encoded request path, with the context path. */
  String requestUri();

  /** The raw query string, or null. */
  String rawQuery();

  /** Whether the request came over HTTPS (cookies set on it are then {@code Secure}). */
  boolean secure();

  /** The context path the application is deployed under, "" for the root. */
  String contextPath();

  /** The declared body length, or −1 when unknown. */
  long contentLength();

  /**
   * The session id the container has for the request (a valid one), or null: by default none,
   * as for Jetty's core API and a Jakarta REST filter, which have no container session.
   */
  default String containerSessionId() {
    return null;
  }

  /**
   * The request attribute (a servlet request's attribute, a Jetty request's, a REST request
   * context's property) of that name, or null: by default none.
   */
  default Object attribute(String name) {
    return null;
  }

  /**
   * The response size the application declared in advance ({@link
   * BandwidthShaper#SIZE_ATTRIBUTE}), or −1 when unknown.
   */
  default long declaredResponseSize() {
    return BandwidthShaper.declaredSize(attribute(BandwidthShaper.SIZE_ATTRIBUTE));
  }

  /**
   * Whether the adapter can hold the request without its thread (servlet async support; always
   * for Jetty's core API): when it cannot, a delay is refused and a wait blocks the thread or is
   * refused, by {@code queue.nonAsync}.
   */
  boolean canSuspend();
}
