package org.overloadcontrol.internal.engine;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.overloadcontrol.Rejection;

/**
 * A complete response the engine decided on, free of any container type, so that every adapter
 * sends the same bytes: each writes it on an empty response, {@link #status()}, the headers the
 * pipeline's {@code StepResponses} lists ({@code Cache-Control: no-store}, {@code Retry-After}
 * when {@link #retryAfterSeconds()} is positive, each {@code Set-Cookie} value), the content type
 * and the body. The virtual queue's pages are answers (WebQ §V-A, {@code VirtualQueueFrontEnd}), and
 * so are the refusals made here:
 * <ul>
 *   <li>503 Service Unavailable ({@link #refusal}, {@link #rejection}): overload control refused
 *       or expired the request (Welsh &amp; Culler 2003, §3.3); 429 instead where the
 *       configuration says so ({@link Rejection#status()}: by default on Tomcat, which closes the
 *       connection after every 503);</li>
 *   <li>429 Too Many Requests ({@link #tooManyRequests}): the client's group is over its
 *       bandwidth share (Li &amp; Jamin §V.C; the server is not down, so not 503);</li>
 *   <li>403 Forbidden ({@link #forbidden}): the client's group has a 0 % share.</li>
 * </ul>
 * All refusals but the 403 carry {@code Retry-After}. A client that accepts {@code text/html}
 * (a browser) gets a short page, any other an RFC 9457 {@code application/problem+json} body.
 *
 * @param status the HTTP status
 * @param retryAfterSeconds the {@code Retry-After} value in whole seconds; 0 for none
 * @param setCookies whole {@code Set-Cookie} header values
 * @param contentType the body's media type
 * @param body the encoded body
 */
public record Answer(
    int status, long retryAfterSeconds, List<String> setCookies, String contentType, byte[] body) {

  /** 503: the server, or this endpoint, is overloaded. */
  public static final int SERVICE_UNAVAILABLE = Rejection.SERVICE_UNAVAILABLE;

  /** 429: the client's group is over its bandwidth share. */
  public static final int TOO_MANY_REQUESTS = Rejection.TOO_MANY_REQUESTS;

  /** 403: the client's group has no share. */
  public static final int FORBIDDEN = 403;

  /** The {@code Cache-Control} value of every answer: it is personal and brief. */
  public static final String CACHE_CONTROL = "no-store";

  /** Media type of the HTML page. */
  public static final String HTML = "text/html;charset=UTF-8";

  /** Media type of the RFC 9457 body. */
  public static final String PROBLEM_JSON = "application/problem+json";

  public Answer {
    setCookies = List.copyOf(setCookies);
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  /** An answer that sets no cookie. */
  public Answer(int status, long retryAfterSeconds, String contentType, byte[] body) {
    this(status, retryAfterSeconds, List.of(), contentType, body);
  }

  /**
   * The answer to a request overload control refused: 503, or 429 where the configuration asks
   * for it ({@link Rejection#status()}).
   *
   * @param status 503 or 429
   * @param accept the request's {@code Accept} header, or null
   * @param instance the request URI (the problem's {@code instance})
   * @param endpoint the endpoint the request was routed to
   * @param requestClass the request's class
   * @param reason the machine-readable reason ({@code admission-rate}, {@code expired}, ...)
   * @param retryAfterSeconds the {@code Retry-After} value in whole seconds
   */
  public static Answer refusal(
      int status,
      String accept,
      String instance,
      String endpoint,
      String requestClass,
      String reason,
      long retryAfterSeconds) {
    if (wantsHtml(accept)) {
      return new Answer(
          status,
          retryAfterSeconds,
          HTML,
          html(retryAfterSeconds).getBytes(StandardCharsets.UTF_8));
    }
    return new Answer(
        status,
        retryAfterSeconds,
        PROBLEM_JSON,
        problemJson(status, endpoint, requestClass, reason, retryAfterSeconds, instance)
            .getBytes(StandardCharsets.UTF_8));
  }

  /** The default answer to a refused or expired request: why and when to come back. */
  public static Answer rejection(Rejection rejection, String accept, String instance) {
    return refusal(
        rejection.status(),
        accept,
        instance,
        rejection.endpoint(),
        rejection.requestClass(),
        rejection.reason().code(),
        rejection.retryAfterSeconds());
  }

  /**
   * The 429 for a client group over its bandwidth share (Li &amp; Jamin): its standby place is
   * taken or its delay would be too long.
   *
   * @param accept the request's {@code Accept} header, or null
   * @param instance the request URI (the problem's {@code instance})
   * @param reason the machine-readable reason ({@code bandwidth-standby-full}, ...)
   * @param retryAfterSeconds the {@code Retry-After} value in whole seconds (at least 1)
   */
  public static Answer tooManyRequests(
      String accept, String instance, String reason, long retryAfterSeconds) {
    return shareRejection(
        TOO_MANY_REQUESTS, accept, instance, reason, Math.max(1L, retryAfterSeconds));
  }

  /**
   * The 403 for a client group with a 0 % bandwidth share; no {@code Retry-After}, since
   * trying again will not help.
   */
  public static Answer forbidden(String accept, String instance, String reason) {
    return shareRejection(FORBIDDEN, accept, instance, reason, 0L);
  }

  private static Answer shareRejection(
      int status, String accept, String instance, String reason, long retryAfterSeconds) {
    if (wantsHtml(accept)) {
      return new Answer(
          status,
          retryAfterSeconds,
          HTML,
          shareHtml(status, retryAfterSeconds).getBytes(StandardCharsets.UTF_8));
    }
    return new Answer(
        status,
        retryAfterSeconds,
        PROBLEM_JSON,
        shareProblemJson(status, reason, retryAfterSeconds, instance)
            .getBytes(StandardCharsets.UTF_8));
  }

  /** The reason phrase of a status this class answers with: a problem's and a page's title. */
  private static String title(int status) {
    return switch (status) {
      case TOO_MANY_REQUESTS -> "Too Many Requests";
      case FORBIDDEN -> "Forbidden";
      default -> "Service Unavailable";
    };
  }

  /** The page for browsers refused by bandwidth shares (429 or 403). */
  static String shareHtml(int status, long retrySeconds) {
    String text =
        status == TOO_MANY_REQUESTS
            ? "You are using more than your share of this server right now. Please try again in "
                + retrySeconds
                + (retrySeconds == 1 ? " second" : " seconds")
                + "."
            : "This server does not serve requests from your network.";
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + title(status)
        + "</title>"
        + "<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;"
        + "padding:0 1em;color:#222}</style></head><body>"
        + "<h1>"
        + title(status)
        + "</h1><p>"
        + text
        + "</p></body></html>\n";
  }

  /** The RFC 9457 problem document for API clients refused by bandwidth shares. */
  static String shareProblemJson(int status, String reason, long retrySeconds, String instance) {
    String detail =
        status == TOO_MANY_REQUESTS
            ? "Your client group is over its bandwidth share; retry after " + retrySeconds + " s."
            : "Your client group has no share of this server.";
    return "{\"type\":\"about:blank\",\"title\":\""
        + title(status)
        + "\",\"status\":"
        + status
        + ",\"detail\":"
        + JsonText.quote(detail)
        + ","
        + "\"instance\":"
        + JsonText.quote(instance)
        + ","
        + "\"reason\":"
        + JsonText.quote(reason)
        + (retrySeconds > 0 ? ",\"retryAfterSeconds\":" + retrySeconds : "")
        + "}";
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
        + retrySeconds
        + (retrySeconds == 1 ? " second" : " seconds")
        + ".</p>"
        + "</body></html>\n";
  }

  /** The RFC 9457 problem document for API clients. */
  public static String problemJson(
      int status,
      String endpoint,
      String requestClass,
      String reason,
      long retrySeconds,
      String instance) {
    return "{\"type\":\"about:blank\",\"title\":\""
        + title(status)
        + "\",\"status\":"
        + status
        + ",\"detail\":\"The server is overloaded; retry after "
        + retrySeconds
        + " s.\","
        + "\"instance\":"
        + JsonText.quote(instance)
        + ","
        + "\"endpoint\":"
        + JsonText.quote(endpoint)
        + ","
        + "\"requestClass\":"
        + JsonText.quote(requestClass)
        + ","
        + "\"reason\":"
        + JsonText.quote(reason)
        + ","
        + "\"retryAfterSeconds\":"
        + retrySeconds
        + "}";
  }
}
