package org.overloadcontrol.internal.engine;

/**
 * JSON string quoting for the few small documents the adapters write themselves (rejection
 * bodies, status, metrics documents). Besides the characters JSON requires, {@code <},
 * {@code >} and {@code &} are escaped so that a value echoed from the request can never close a
 * script block, and U+2028 / U+2029, which end a line in JavaScript before ES2019.
 */
public final class JsonText {

  private JsonText() {}

  /** {@code s} as a JSON string literal, or {@code null}. */
  public static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
