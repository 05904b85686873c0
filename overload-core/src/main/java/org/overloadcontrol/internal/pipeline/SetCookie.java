package org.overloadcontrol.internal.pipeline;

/**
 * The session cookie the pipeline asks adapters to send (Cherkasova &amp; Phaal §4: the
 * session's admission travels with it), as a whole {@code Set-Cookie} value (RFC 6265 §4.1),
 * rendered once here so that every container sends the same bytes.
 */
final class SetCookie {

  private SetCookie() {}

  /**
   * A session cookie (no {@code Max-Age}: the session table's idle and lifetime bounds are the
   * real ones) for the whole application.
   */
  static String session(String name, String value, String contextPath, boolean secure) {
    StringBuilder sb =
        new StringBuilder(name)
            .append('=')
            .append(value)
            .append("; Path=")
            .append(contextPath == null || contextPath.isEmpty() ? "/" : contextPath);
    sb.append("; HttpOnly; SameSite=Lax");
    if (secure) {
      sb.append("; Secure");
    }
    return sb.toString();
  }
}
