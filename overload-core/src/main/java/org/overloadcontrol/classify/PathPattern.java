package org.overloadcontrol.classify;

import java.util.List;
import java.util.Objects;

/**
 * A path pattern in the syntax of servlet mappings, so users write what they already know:
 * an exact path ({@code /checkout}), a prefix ({@code /api/*}, which also matches
 * {@code /api}), an extension ({@code *.jpg}), or {@code /*} for everything.
 */
public final class PathPattern {

  private enum Type {
    EXACT,
    PREFIX,
    EXTENSION,
    ALL
  }

  private final String source;
  private final Type type;
  private final String value;

  private PathPattern(String source, Type type, String value) {
    this.source = source;
    this.type = type;
    this.value = value;
  }

  /**
   * Parses a pattern.
   *
   * @throws IllegalArgumentException naming the pattern and the allowed forms
   */
  public static PathPattern parse(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    String p = pattern.trim();
    if (p.equals("/*")) {
      return new PathPattern(p, Type.ALL, "");
    }
    if (p.startsWith("*.") && p.length() > 2 && p.indexOf('/') < 0 && p.indexOf('*', 1) < 0) {
      return new PathPattern(p, Type.EXTENSION, p.substring(1));
    }
    if (p.startsWith("/") && p.indexOf('*') < 0) {
      return new PathPattern(p, Type.EXACT, p);
    }
    if (p.startsWith("/") && p.endsWith("/*") && p.indexOf('*') == p.length() - 1) {
      return new PathPattern(p, Type.PREFIX, p.substring(0, p.length() - 2));
    }
    throw new IllegalArgumentException(
        "'"
            + pattern
            + "' is not a path pattern; use an exact"
            + " path (/checkout), a prefix (/api/*), an extension (*.jpg) or /*");
  }

  /** Whether {@code path} (within the application, starting with "/") matches. */
  public boolean matches(String path) {
    if (path == null) {
      return false;
    }
    return switch (type) {
      case ALL -> true;
      case EXACT -> path.equals(value);
      case PREFIX ->
          path.equals(value)
              || (path.startsWith(value)
                  && path.length() > value.length()
                  && path.charAt(value.length()) == '/');
      case EXTENSION ->
          path.endsWith(value) && path.lastIndexOf('/') < path.length() - value.length();
    };
  }

  /**
   * Whether some path of a given shape could match: the shape is a framework route's template
   * as whole segments, each a literal or null for any one non-empty segment, and {@code more}
   * says that any further segments (or none) may follow. False only when no such path can match,
   * so that a route's requests can skip the bypass check (docs/performance.md, "Framework
   * routing").
   */
  public boolean mayMatch(List<String> segments, boolean more) {
    return switch (type) {
      case ALL -> true;
      case EXACT -> mayStartWith(segments, more, false);
      case PREFIX -> mayStartWith(segments, more, true);
      case EXTENSION -> {
        String last = segments.isEmpty() ? "" : segments.get(segments.size() - 1);
        yield more || last == null || last.endsWith(value);
      }
    };
  }

  /** For an exact path or a prefix: whether the shape's paths may be it, or (prefix) below it. */
  private boolean mayStartWith(List<String> segments, boolean more, boolean below) {
    String[] own = value.substring(1).split("/", -1);
    if (value.equals("/")) {
      own = new String[0];
    }
    if (List.of(own).contains("")) {
      return true; // an empty segment or a trailing slash: not worth reasoning about
    }
    int shared = Math.min(own.length, segments.size());
    for (int i = 0; i < shared; i++) {
      String segment = segments.get(i);
      if (segment != null && !segment.equals(own[i])) {
        return false;
      }
    }
    if (segments.size() < own.length) {
      return more;
    }
    return below || segments.size() == own.length;
  }

  @Override
  public String toString() {
    return source;
  }
}
