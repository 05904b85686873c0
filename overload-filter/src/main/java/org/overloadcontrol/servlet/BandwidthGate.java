package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.overloadcontrol.bandwidth.BandwidthShaper;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.engine.RefusalBody;
import org.overloadcontrol.base.Ticker;

/**
 * The servlet side of bandwidth shares (Li &amp; Jamin): maps an {@link HttpServletRequest} to its
 * client group and response size, asks the {@link BandwidthShaper}, and writes the refusal when
 * there is one. The client address is the connection's, or the one a configured trusted proxy
 * reports in {@code Forwarded} or {@code X-Forwarded-For}; a forwarded header from anyone else
 * is ignored, so a spoofed header cannot buy a better share.
 *
 * <p>The response size is known in advance when the application (or an earlier filter) sets the
 * request attribute {@link #SIZE_ATTRIBUTE} to a {@link Number} of bytes, e.g. a static file's
 * length; otherwise the group's recent mean response size is used.
 *
 * <p>The gate applies no delay itself: a {@code DELAY} decision is for the adapter to suspend the
 * request on a timer, call {@code ticket().delayEnded()} when it resumes, and
 * {@code ticket().complete(bytes)} or {@code ticket().cancel()} when it ends.
 */
final class BandwidthGate {

  /** Request attribute holding the response size in bytes when it is known in advance. */
  public static final String SIZE_ATTRIBUTE = BandwidthShaper.SIZE_ATTRIBUTE;

  private final BandwidthShaper shaper;
  private final ClientAddressResolver clients;

  public BandwidthGate(BandwidthShaper shaper, ClientAddressResolver clients) {
    this.shaper = Objects.requireNonNull(shaper, "shaper");
    this.clients = Objects.requireNonNull(clients, "clients");
  }

  /**
   * A gate for the {@code bandwidth.} section of {@code config}, resolving client addresses
   * with the filter's {@code clients}.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException if the section is invalid
   */
  public static BandwidthGate from(OverloadConfig config, ClientAddressResolver clients,
      Ticker ticker) {
    return new BandwidthGate(BandwidthShaper.from(config, ticker), clients);
  }

  public BandwidthShaper shaper() {
    return shaper;
  }

  /** Decides with the size from {@link #SIZE_ATTRIBUTE}, if any. */
  public ShapingDecision decide(HttpServletRequest request) {
    return decide(request, declaredSize(request));
  }

  /**
   * Decides about {@code request}.
   *
   * @param knownSizeBytes the response size when known, or negative for the group's mean
   */
  public ShapingDecision decide(HttpServletRequest request, long knownSizeBytes) {
    return shaper.decide(new ServletRequestAttributes(request, clients), knownSizeBytes);
  }

  static long declaredSize(HttpServletRequest request) {
    return BandwidthShaper.declaredSize(request.getAttribute(SIZE_ATTRIBUTE));
  }

  /**
   * Answers a refused request with the engine's {@link ShapingDecision#refusal} (the same
   * bytes the Jetty handler sends): 429 Too Many Requests with {@code Retry-After} when the
   * group is over its share (the server is not down, so not 503), or 403 Forbidden for a group
   * with a 0 % share; an HTML page for browsers, {@code application/problem+json} (RFC 9457)
   * for the rest.
   *
   * @throws IllegalArgumentException if {@code decision} is not a refusal
   */
  public void refuse(HttpServletRequest request, HttpServletResponse response,
      ShapingDecision decision) throws IOException {
    RefusalBody refusal = decision.refusal(request.getHeader("Accept"),
        request.getRequestURI());
    if (response.isCommitted()) {
      return;
    }
    response.reset();
    response.setStatus(refusal.status());
    if (refusal.retryAfterSeconds() > 0) {
      response.setHeader("Retry-After", Long.toString(refusal.retryAfterSeconds()));
    }
    response.setHeader("Cache-Control", RefusalBody.CACHE_CONTROL);
    response.setContentType(refusal.contentType());
    response.setContentLength(refusal.body().length);
    response.getOutputStream().write(refusal.body());
    response.flushBuffer();
  }
}
