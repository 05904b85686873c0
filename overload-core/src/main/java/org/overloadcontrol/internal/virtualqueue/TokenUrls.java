package org.overloadcontrol.internal.virtualqueue;

/**
 * The token's place in a URL: the query parameter {@value #PARAMETER}. A token is bound to the
 * URL without that parameter, so the URL the client is sent back to verifies against the URL
 * it first asked for. Works on the raw (still percent-encoded) query, so nothing is decoded and
 * re-encoded differently on the way back.
 */
final class TokenUrls {

  /** The query parameter and cookie name that carry the token. */
  public static final String PARAMETER = "oc_token";

  private TokenUrls() {}

  /** The token in {@code rawQuery}, or null. */
  public static String token(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.startsWith(PARAMETER + "=")) {
        return pair.substring(PARAMETER.length() + 1);
      }
    }
    return null;
  }

  /** {@code rawQuery} without the token parameter, or null when nothing is left. */
  public static String withoutToken(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder(rawQuery.length());
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty() || pair.equals(PARAMETER) || pair.startsWith(PARAMETER + "=")) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append('&');
      }
      sb.append(pair);
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  /** The URL a token is bound to: path plus the query without the token. */
  public static String bound(String rawPath, String rawQuery) {
    String q = withoutToken(rawQuery);
    return q == null ? rawPath : rawPath + "?" + q;
  }

  /**
   * The path a token cookie is set for: {@code rawPath} without its path parameters
   * ({@code /shop/checkout;jsessionid=abc} gives {@code /shop/checkout}). A cookie path may not
   * hold a {@code ;} (RFC 6265 §4.1.1: it would end the attribute), and Tomcat refuses to write
   * such a cookie at all; the token still reaches the page with parameters through the URL.
   */
  public static String cookiePath(String rawPath) {
    if (rawPath.indexOf(';') < 0) {
      return rawPath;
    }
    StringBuilder sb = new StringBuilder(rawPath.length());
    boolean inParameter = false;
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c == ';') {
        inParameter = true;
      } else if (c == '/') {
        inParameter = false;
      }
      if (!inParameter) {
        sb.append(c);
      }
    }
    return sb.length() == 0 ? "/" : sb.toString();
  }

  /** {@code boundUrl} with the token appended (the token is URL-safe Base64). */
  public static String withToken(String boundUrl, String token) {
    return boundUrl + (boundUrl.indexOf('?') < 0 ? '?' : '&') + PARAMETER + "=" + token;
  }
}
