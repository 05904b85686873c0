package org.overloadcontrol.virtualqueue;

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
}
