package org.overloadcontrol.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The default answer to a refused request: 503 Service Unavailable with {@code Retry-After},
 * {@code Cache-Control: no-store}, and a body the client can read. A client that accepts
 * {@code text/html} (a browser) gets a short page; any other gets an RFC 9457
 * {@code application/problem+json} body with the retry time.
 */
public final class DefaultRejectionHandler implements RejectionHandler {

  @Override
  public void reject(HttpServletRequest request, HttpServletResponse response,
      Rejection rejection) throws IOException {
    if (response.isCommitted()) {
      return;
    }
    response.reset();
    long retry = rejection.retryAfterSeconds();
    response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setHeader("Retry-After", Long.toString(retry));
    response.setHeader("Cache-Control", "no-store");
    byte[] body;
    if (wantsHtml(request.getHeader("Accept"))) {
      response.setContentType("text/html;charset=UTF-8");
      body = html(retry).getBytes(StandardCharsets.UTF_8);
    } else {
      response.setContentType("application/problem+json");
      body = problemJson(rejection, retry, request.getRequestURI())
          .getBytes(StandardCharsets.UTF_8);
    }
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    response.flushBuffer();
  }

  static boolean wantsHtml(String accept) {
    return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("text/html");
  }

  static String html(long retrySeconds) {
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

  static String problemJson(Rejection r, long retrySeconds, String instance) {
    return "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
        + "\"detail\":\"The server is overloaded; retry after " + retrySeconds + " s.\","
        + "\"instance\":" + Json.string(instance) + ","
        + "\"endpoint\":" + Json.string(r.endpoint()) + ","
        + "\"requestClass\":" + Json.string(r.requestClass()) + ","
        + "\"reason\":" + Json.string(r.reason()) + ","
        + "\"retryAfterSeconds\":" + retrySeconds + "}";
  }
}
