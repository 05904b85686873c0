package org.overloadcontrol.internal.virtualqueue;

/**
 * The {@value TokenUrls#PARAMETER} cookie the adapter sets: it keeps a waiting user's place when
 * the token cannot travel in the URL (a body that must be sent again), and is cleared once the
 * token has been used. Always {@code HttpOnly} and {@code SameSite=Lax}; an empty value with
 * {@code maxAgeSeconds} 0 deletes it.
 *
 * @param value the token, or "" to clear the cookie
 * @param path the raw request path the token was issued for
 * @param maxAgeSeconds the wait plus the grace window (and a second), or 0 to clear
 * @param secure set on requests that came over HTTPS
 */
public record TokenCookie(String value, String path, int maxAgeSeconds, boolean secure) {

  /** The cookie's name, the same as the query parameter's. */
  public static final String NAME = TokenUrls.PARAMETER;

  /** The cookie's {@code SameSite} attribute. */
  public static final String SAME_SITE = "Lax";

  /** When a cleared cookie expired: the epoch, for clients that ignore {@code Max-Age=0}. */
  private static final String EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

  /**
   * This cookie as a whole {@code Set-Cookie} header value (RFC 6265 §4.1), rendered here so
   * that every container sends the same bytes and none can refuse a path it thinks invalid (a
   * servlet container's {@code Cookie} class rejects a path holding {@code ;x=1}).
   */
  public String setCookie() {
    StringBuilder sb =
        new StringBuilder(NAME)
            .append('=')
            .append(value)
            .append("; Path=")
            .append(path)
            .append("; Max-Age=")
            .append(maxAgeSeconds);
    if (maxAgeSeconds == 0) {
      sb.append("; Expires=").append(EPOCH);
    }
    sb.append("; HttpOnly; SameSite=").append(SAME_SITE);
    if (secure) {
      sb.append("; Secure");
    }
    return sb.toString();
  }
}
