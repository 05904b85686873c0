package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The quality level at which the shop serves a request, in [0, 1]: 1.0 is the full page, less
 * means less work (fewer search results). The one place the pages ask, so the degradation
 * controller (Welsh &amp; Culler 2003 §3.4; {@code OverloadContext}) plugs in here when it exists.
 */
final class Quality {

  /** Full quality. */
  static final double FULL = 1.0;

  private Quality() {}

  /** The quality for {@code request}; always {@link #FULL} until degradation is built. */
  static double of(HttpServletRequest request) {
    return FULL;
  }
}
