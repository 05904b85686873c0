package org.overloadcontrol.pipeline;

import org.overloadcontrol.virtualqueue.TokenCookie;

/**
 * The {@code Set-Cookie} header values the pipeline asks adapters to send, rendered once here
 * (RFC 6265 §4.1) so that every container sends the same bytes and none can refuse a path it
 * thinks invalid (a servlet container's {@code Cookie} class rejects a path with {@code ;x=1}).
 */
final class SetCookie {

  private static final String EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

  private SetCookie() {}

  /** The virtual queue's token cookie; a cleared one expires at once. */
  static String of(TokenCookie token) {
    StringBuilder sb = new StringBuilder(TokenCookie.NAME).append('=').append(token.value())
        .append("; Path=").append(token.path())
        .append("; Max-Age=").append(token.maxAgeSeconds());
    if (token.maxAgeSeconds() == 0) {
      sb.append("; Expires=").append(EPOCH);
    }
    return attributes(sb, TokenCookie.SAME_SITE, token.secure());
  }

  /**
   * A session cookie (no {@code Max-Age}: the session table's idle and lifetime bounds are the
   * real ones) for the whole application.
   */
  static String session(String name, String value, String contextPath, boolean secure) {
    StringBuilder sb = new StringBuilder(name).append('=').append(value).append("; Path=")
        .append(contextPath == null || contextPath.isEmpty() ? "/" : contextPath);
    return attributes(sb, "Lax", secure);
  }

  private static String attributes(StringBuilder sb, String sameSite, boolean secure) {
    sb.append("; HttpOnly; SameSite=").append(sameSite);
    if (secure) {
      sb.append("; Secure");
    }
    return sb.toString();
  }
}
