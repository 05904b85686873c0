package org.overloadcontrol.sample;

import jakarta.servlet.http.HttpServletRequest;
import org.overloadcontrol.servlet.Overload;

/**
 * The quality level at which the shop serves a request, in [0, 1]: 1.0 is the full page, less
 * means less work (fewer search results). The one place the pages ask: it reads the request's
 * quality from overload control ({@code OverloadContext.quality()}, Welsh &amp; Culler 2003
 * §3.4), fixed when the request was admitted; 1.0 when the filter did not see the request or its
 * endpoint is not {@code @Degradable}.
 */
final class Quality {

  /** Full quality. */
  static final double FULL = 1.0;

  private Quality() {}

  /** The quality for {@code request}. */
  static double of(HttpServletRequest request) {
    return Overload.quality(request);
  }
}
