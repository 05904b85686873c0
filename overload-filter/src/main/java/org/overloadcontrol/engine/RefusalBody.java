package org.overloadcontrol.engine;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The default answer to a refused or expired request, free of any container type, so that the
 * servlet filter and the Jetty handler send the same bytes: 503 Service Unavailable with
 * {@code Retry-After} and {@code Cache-Control: no-store}; a client that accepts
 * {@code text/html} (a browser) gets a short page, any other an RFC 9457
 * {@code application/problem+json} body with the retry time. Each adapter only copies
 * {@link #status()}, the headers and {@link #body()} onto its own response.
 *
 * @param status the HTTP status
 * @param retryAfterSeconds the {@code Retry-After} value in whole seconds (at least 1)
 * @param contentType the body's media type
 * @param body the encoded body
 */
public record RefusalBody(int status, long retryAfterSeconds, String contentType, byte[] body) {

  /** 503: the server, or this endpoint, is overloaded. */
  public static final int SERVICE_UNAVAILABLE = 503;
  /** Media type of the HTML page. */
  public static final String HTML = "text/html;charset=UTF-8";
  /** Media type of the RFC 9457 body. */
  public static final String PROBLEM_JSON = "application/problem+json";

  /**
   * The 503 for a request overload control refused.
   *
   * @param accept the request's {@code Accept} header, or null
   * @param instance the request URI (the problem's {@code instance})
   * @param endpoint the endpoint the request was routed to
   * @param requestClass the request's class
   * @param reason the machine-readable reason ({@code admission-rate}, {@code expired}, ...)
   * @param retryAfterSeconds the {@code Retry-After} value in whole seconds
   */
  public static RefusalBody serviceUnavailable(String accept, String instance, String endpoint,
      String requestClass, String reason, long retryAfterSeconds) {
    if (wantsHtml(accept)) {
      return new RefusalBody(SERVICE_UNAVAILABLE, retryAfterSeconds, HTML,
          html(retryAfterSeconds).getBytes(StandardCharsets.UTF_8));
    }
    return new RefusalBody(SERVICE_UNAVAILABLE, retryAfterSeconds, PROBLEM_JSON,
        problemJson(endpoint, requestClass, reason, retryAfterSeconds, instance)
            .getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The 503 for a refused or expired request, from what the engine recorded on its tag: its
   * reason ({@code admission-rate} when none was given) and retry time.
   */
  public static RefusalBody of(RequestTag tag, String accept, String instance) {
    String reason = tag.reason() == null ? "admission-rate" : tag.reason();
    return serviceUnavailable(accept, instance, tag.endpoint(), tag.requestClass(), reason,
        retryAfterSeconds(tag.retryAfterNanos()));
  }

  /** A wait in nanoseconds as a {@code Retry-After} value: whole seconds rounded up, at least 1. */
  public static long retryAfterSeconds(long nanos) {
    long seconds = (nanos + 999_999_999L) / 1_000_000_000L;
    return Math.max(1L, seconds);
  }

  /** Whether a client with this {@code Accept} header gets the HTML page. */
  public static boolean wantsHtml(String accept) {
    return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html");
  }

  /** The page for browsers. */
  public static String html(long retrySeconds) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>Busy right now</title>"
        + "<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;"
        + "padding:0 1em;color:#222}</style></head><body>"
        + "<h1>We are very busy right now</h1>"
        + "<p>Your request could not be served at this moment. Please try again in "
        + retrySeconds + (retrySeconds == 1 ? " second" : " seconds") + ".</p>"
        + "</body></html>\n";
  }

  /** The RFC 9457 problem document for API clients. */
  public static String problemJson(String endpoint, String requestClass, String reason,
      long retrySeconds, String instance) {
    return "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
        + "\"detail\":\"The server is overloaded; retry after " + retrySeconds + " s.\","
        + "\"instance\":" + JsonText.quote(instance) + ","
        + "\"endpoint\":" + JsonText.quote(endpoint) + ","
        + "\"requestClass\":" + JsonText.quote(requestClass) + ","
        + "\"reason\":" + JsonText.quote(reason) + ","
        + "\"retryAfterSeconds\":" + retrySeconds + "}";
  }
}
