package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.overloadcontrol.bandwidth.BandwidthSettings;
import org.overloadcontrol.bandwidth.BandwidthShaper;
import org.overloadcontrol.bandwidth.ShapingDecision;
import org.overloadcontrol.classify.ClientAddressResolver;
import org.overloadcontrol.config.OverloadConfig;
import org.overloadcontrol.engine.Ticker;

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
public final class BandwidthGate {

  /** Request attribute holding the response size in bytes when it is known in advance. */
  public static final String SIZE_ATTRIBUTE = "org.overloadcontrol.bandwidth.size";

  private final BandwidthShaper shaper;
  private final ClientAddressResolver clients;

  public BandwidthGate(BandwidthShaper shaper, ClientAddressResolver clients) {
    this.shaper = Objects.requireNonNull(shaper, "shaper");
    this.clients = Objects.requireNonNull(clients, "clients");
  }

  /**
   * A gate for the {@code bandwidth.} section of {@code config}, trusting its
   * {@code trustedProxies}.
   *
   * @throws org.overloadcontrol.config.OverloadConfigException if the section is invalid
   */
  public static BandwidthGate from(OverloadConfig config, Ticker ticker) {
    BandwidthSettings settings = BandwidthSettings.from(config.section("bandwidth"));
    return new BandwidthGate(new BandwidthShaper(settings, ticker),
        new ClientAddressResolver(config.trustedProxies()));
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
    Object size = request.getAttribute(SIZE_ATTRIBUTE);
    return size instanceof Number n && n.longValue() >= 0 ? n.longValue() : -1;
  }

  /**
   * Answers a refused request: 429 Too Many Requests with {@code Retry-After} when the group is
   * over its share (the server is not down, so not 503), or 403 Forbidden for a group with a
   * 0 % share; an HTML page for browsers, {@code application/problem+json} (RFC 9457) for the
   * rest, as {@link DefaultRejectionHandler} does.
   *
   * @throws IllegalArgumentException if {@code decision} is not a refusal
   */
  public void refuse(HttpServletRequest request, HttpServletResponse response,
      ShapingDecision decision) throws IOException {
    if (decision.kind() != ShapingDecision.Kind.REFUSE) {
      throw new IllegalArgumentException("not a refusal: " + decision.kind());
    }
    if (response.isCommitted()) {
      return;
    }
    response.reset();
    int status = decision.status();
    response.setStatus(status);
    long retrySeconds = 0;
    if (decision.retryAfterNanos() > 0) {
      retrySeconds = Math.max(1, (decision.retryAfterNanos() + 999_999_999L) / 1_000_000_000L);
      response.setHeader("Retry-After", Long.toString(retrySeconds));
    }
    response.setHeader("Cache-Control", "no-store");
    byte[] body;
    if (DefaultRejectionHandler.wantsHtml(request.getHeader("Accept"))) {
      response.setContentType("text/html;charset=UTF-8");
      body = html(status, retrySeconds).getBytes(StandardCharsets.UTF_8);
    } else {
      response.setContentType("application/problem+json");
      body = problemJson(status, decision.reason(), retrySeconds, request.getRequestURI())
          .getBytes(StandardCharsets.UTF_8);
    }
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    response.flushBuffer();
  }

  private static String title(int status) {
    return status == 429 ? "Too Many Requests" : "Forbidden";
  }

  static String html(int status, long retrySeconds) {
    String text = status == 429
        ? "You are using more than your share of this server right now. Please try again in "
            + retrySeconds + (retrySeconds == 1 ? " second" : " seconds") + "."
        : "This server does not serve requests from your network.";
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>" + title(status) + "</title>"
        + "<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;"
        + "padding:0 1em;color:#222}</style></head><body>"
        + "<h1>" + title(status) + "</h1><p>" + text + "</p></body></html>\n";
  }

  static String problemJson(int status, String reason, long retrySeconds, String instance) {
    String detail = status == 429
        ? "Your client group is over its bandwidth share; retry after " + retrySeconds + " s."
        : "Your client group has no share of this server.";
    return "{\"type\":\"about:blank\",\"title\":\"" + title(status) + "\",\"status\":" + status
        + ",\"detail\":" + Json.string(detail) + ","
        + "\"instance\":" + Json.string(instance) + ","
        + "\"reason\":" + Json.string(reason)
        + (retrySeconds > 0 ? ",\"retryAfterSeconds\":" + retrySeconds : "") + "}";
  }
}
