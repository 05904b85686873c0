package org.overloadcontrol.internal.virtualqueue;

import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses an {@code application/x-www-form-urlencoded} body into its fields, in order, so the
 * waiting page can carry a form and re-post it (the adapter reads the bytes; an adapter with its
 * own form parser, like Jetty's {@code FormFields}, need not use this).
 */
public final class UrlEncodedForm {

  private UrlEncodedForm() {}

  /**
   * The fields of {@code body}, or null when it is not a well-formed url-encoded form.
   *
   * @param charsetName the request's character encoding, or null for UTF-8
   */
  public static List<Map.Entry<String, String>> parse(byte[] body, String charsetName) {
    Charset charset = charset(charsetName);
    List<Map.Entry<String, String>> fields = new ArrayList<>();
    // Percent-escapes are ASCII, so decoding the bytes as ISO-8859-1 first loses nothing.
    String text = new String(body, StandardCharsets.ISO_8859_1);
    for (String pair : text.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        fields.add(Map.entry(URLDecoder.decode(name, charset), URLDecoder.decode(value, charset)));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return fields;
  }

  /** Whether a request with this {@code Content-Type} carries a url-encoded form. */
  public static boolean isForm(String contentType) {
    return contentType != null
        && contentType
            .toLowerCase(java.util.Locale.ROOT)
            .startsWith("application/x-www-form-urlencoded");
  }

  private static Charset charset(String name) {
    if (name == null) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return StandardCharsets.UTF_8;
    }
  }
}
