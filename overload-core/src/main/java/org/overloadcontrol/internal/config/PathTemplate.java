package org.overloadcontrol.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.overloadcontrol.internal.classify.BypassPaths;

/**
 * A framework's path template compiled once, at start, into a regular expression: Jakarta REST
 * templates ({@code /orders/{id}}, {@code /files/{name: .+}}) and Spring MVC path patterns
 * ({@code /orders/{id}}, {@code /static/*}, {@code /docs/**}, {@code /files/{*rest}}).
 * A variable without a regular expression, and {@code *}, match one path segment; {@code **}
 * and {@code {*name}} match the rest of the path, nothing included.
 */
final class PathTemplate {

  private final String source;

  /** The compiled expression; used only when {@link #segments} is null. */
  private final Pattern pattern;

  /**
   * The template as whole segments (a literal, {@link #ONE} or {@link #REST}), when it has
   * no regular expression and no variable inside a segment: matched by a scan of the path, with
   * no allocation and no regular expression (measured in the FrameworkRouting benchmark).
   */
  private final String[] segments;

  /** Literal characters: more of them is a more specific template (Jakarta REST 3.1 §3.7.2). */
  private final int literalCount;

  private final int variableCount;

  /** A segment that is one variable: any non-empty segment. */
  private static final String ONE = new String("{}");

  /** The rest of the path, possibly nothing. */
  private static final String REST = new String("**");

  private PathTemplate(String source, Pattern pattern, int literalCount, int variableCount) {
    this.source = source;
    this.pattern = pattern;
    this.segments = segments(source);
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
            throw new IllegalArgumentException(
                "path template '"
                    + template
                    + "': '"
                    + expression
                    + "' is not a regular expression: "
                    + e.getDescription(),
                e);
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
    throw new IllegalArgumentException(
        "path template '" + template + "': '{' at " + open + " is never closed");
  }

  boolean matches(String path) {
    if (path == null) {
      return false;
    }
    return segments == null ? pattern.matcher(path).matches() : scan(path);
  }

  /** The path's segments against {@link #segments}; a trailing slash is optional. */
  private boolean scan(String path) {
    int length = path.length();
    int pos = 0;
    for (String segment : segments) {
      if (segment == REST) {
        return pos == length || path.charAt(pos) == '/';
      }
      if (pos >= length || path.charAt(pos) != '/') {
        return false;
      }
      pos++;
      int end = path.indexOf('/', pos);
      if (end < 0) {
        end = length;
      }
      if (segment == ONE) {
        if (end == pos) {
          return false;
        }
      } else if (end - pos != segment.length()
          || !path.regionMatches(pos, segment, 0, segment.length())) {
        return false;
      }
      pos = end;
    }
    return pos == length || (pos == length - 1 && path.charAt(pos) == '/');
  }

  /** The template as whole segments ({@link #isOne}, {@link #isRest} or a literal), or null. */
  String[] segments() {
    return segments;
  }

  /** Whether a segment of {@link #segments} is a one-segment variable or {@code *}. */
  static boolean isOne(String segment) {
    return segment == ONE;
  }

  /** Whether a segment of {@link #segments} is the rest of the path ({@code **}). */
  static boolean isRest(String segment) {
    return segment == REST;
  }

  /** Whole segments, or null when a segment needs the regular expression. */
  private static String[] segments(String template) {
    String t = template.trim();
    if (!t.startsWith("/")) {
      t = "/" + t;
    }
    List<String> out = new ArrayList<>();
    String[] parts = t.substring(1).split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      boolean last = i == parts.length - 1;
      if (part.isEmpty()) {
        if (last) {
          break; // a trailing slash: optional anyway
        }
        return null;
      }
      if (part.equals("**")
          || (part.startsWith("{*")
              && part.endsWith("}")
              && part.indexOf('}') == part.length() - 1)) {
        if (!last) {
          return null;
        }
        out.add(REST);
      } else if (part.equals("*")
          || (part.startsWith("{")
              && part.endsWith("}")
              && part.indexOf(':') < 0
              && part.indexOf('{', 1) < 0
              && part.indexOf('}') == part.length() - 1)) {
        out.add(ONE);
      } else if (part.indexOf('{') < 0 && part.indexOf('}') < 0 && part.indexOf('*') < 0) {
        out.add(part);
      } else {
        return null;
      }
    }
    return out.toArray(String[]::new);
  }

  /**
   * Whether some path this template matches could be a probe that {@code bypass} lets through
   * (a template with a regular expression: always, not worth reasoning about).
   */
  boolean mayBypass(BypassPaths bypass) {
    if (segments == null) {
      return !bypass.isEmpty();
    }
    List<String> shape = new ArrayList<>();
    for (String segment : segments) {
      if (segment == REST) {
        return bypass.mayMatch(shape, true);
      }
      shape.add(segment == ONE ? null : segment);
    }
    return bypass.mayMatch(shape, false);
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
