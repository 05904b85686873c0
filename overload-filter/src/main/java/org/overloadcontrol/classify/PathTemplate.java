package org.overloadcontrol.classify;

import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A framework's path template compiled once, at start, into a regular expression: Jakarta REST
 * templates ({@code /orders/{id}}, {@code /files/{name: .+}}) and Spring MVC path patterns
 * ({@code /orders/{id}}, {@code /static/*}, {@code /docs/**}, {@code /files/{*rest}}).
 * A variable without a regular expression, and {@code *}, match one path segment; {@code **}
 * and {@code {*name}} match the rest of the path, nothing included.
 */
final class PathTemplate {

  private final String source;
  private final Pattern pattern;
  /** Literal characters: more of them is a more specific template (Jakarta REST 3.1 §3.7.2). */
  private final int literalCount;
  private final int variableCount;

  private PathTemplate(String source, Pattern pattern, int literalCount, int variableCount) {
    this.source = source;
    this.pattern = pattern;
    this.literalCount = literalCount;
    this.variableCount = variableCount;
  }

  /**
   * Compiles {@code template}, a path within the application starting with "/".
   *
   * @throws IllegalArgumentException naming the template and what is wrong with it
   */
  static PathTemplate compile(String template) {
    Objects.requireNonNull(template, "template");
    String t = template.trim();
    if (!t.startsWith("/")) {
      t = "/" + t;
    }
    StringBuilder regex = new StringBuilder();
    int literals = 0;
    int variables = 0;
    int i = 0;
    while (i < t.length()) {
      char c = t.charAt(i);
      if (c == '{') {
        int end = closingBrace(t, i, template);
        String body = t.substring(i + 1, end);
        int colon = body.indexOf(':');
        if (body.startsWith("*")) {
          regex.append(restOfPath(regex));
        } else if (colon >= 0) {
          String expression = body.substring(colon + 1).trim();
          try {
            Pattern.compile(expression);
          } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("path template '" + template + "': '"
                + expression + "' is not a regular expression: " + e.getDescription(), e);
          }
          regex.append("(?:").append(expression).append(')');
        } else {
          regex.append("[^/]+");
        }
        variables++;
        i = end + 1;
      } else if (c == '*') {
        if (i + 1 < t.length() && t.charAt(i + 1) == '*') {
          regex.append(restOfPath(regex));
          i += 2;
        } else {
          regex.append("[^/]*");
          i++;
        }
        variables++;
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
        literals++;
        i++;
      }
    }
    // A trailing slash is optional, as both frameworks treat it by default.
    String compiled = regex.toString();
    if (t.length() > 1 && t.endsWith("/")) {
      compiled = compiled.substring(0, compiled.length() - Pattern.quote("/").length());
    }
    return new PathTemplate(template, Pattern.compile(compiled + "/?"), literals, variables);
  }

  /** {@code /docs/**} matches {@code /docs} too: the slash before the rest is optional. */
  private static String restOfPath(StringBuilder regex) {
    String slash = Pattern.quote("/");
    if (regex.length() >= slash.length()
        && regex.substring(regex.length() - slash.length()).equals(slash)) {
      regex.setLength(regex.length() - slash.length());
      return "(?:/.*)?";
    }
    return ".*";
  }

  private static int closingBrace(String t, int open, String template) {
    int depth = 0;
    for (int j = open; j < t.length(); j++) {
      if (t.charAt(j) == '{') {
        depth++;
      } else if (t.charAt(j) == '}' && --depth == 0) {
        return j;
      }
    }
    throw new IllegalArgumentException("path template '" + template + "': '{' at " + open
        + " is never closed");
  }

  boolean matches(String path) {
    return path != null && pattern.matcher(path).matches();
  }

  int literalCount() {
    return literalCount;
  }

  int variableCount() {
    return variableCount;
  }

  @Override
  public String toString() {
    return source;
  }
}
